// Media type, judged on every response of the animal store the run observed (checks/transcript.ts).
import { check, type Check } from '../harness/run/kit.js';
import { judgeMediaTypes } from './transcript.js';

export const MEDIA_CHECKS: Check[] = [
  check('MEDIA-JSON', async (ctx) => {
    await ctx.probes.errorResponses(); // every error probe's answer is judged here too
    judgeMediaTypes(ctx);
  }),
];
