// Media type, judged on every response of the animal store the run observed.
import { carriesApiBody, check, fail, plural, type Check } from '../harness/run/kit.js';

export const MEDIA_CHECKS: Check[] = [
  check('MEDIA-JSON', async (ctx) => {
    await ctx.fixtures.errorResponses(); // every error probe's answer is judged here too
    const withBody = ctx.observed('store').filter((ex) => ex.text.length > 0 && carriesApiBody(ex));
    const offenders = withBody.filter((ex) => ex.mediaType !== 'application/json');
    if (offenders.length) {
      const shown = offenders.slice(0, 3).map((ex) => `${ex.summary} has Content-Type ${ex.headers['content-type'] ?? '(none)'}`);
      fail(`${offenders.length} of ${withBody.length} responses are not application/json: ${shown.join(' | ')}`, ...offenders);
    }
    ctx.note(`${plural(withBody.length, 'response')} judged`);
  }),
];
