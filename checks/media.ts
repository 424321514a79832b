import { check, type Check } from '../harness/run/kit.js';
import { judgeMediaTypes } from './transcript.js';

export const MEDIA_CHECKS: Check[] = [
  check('MEDIA-JSON', async (ctx) => {
    await ctx.probes.errorResponses(); // every error probe's answer is judged here too
    judgeMediaTypes(ctx);
  }),
];
