// What a check may use besides its context (context.ts): checks import these two, nothing else.
export { check, type Check } from './check.js';
export { fail, Inconclusive, Skip, Violation } from '../model/outcome.js';
export * from './expect.js';
export {
  READ_HEADER_SPELLINGS,
  bodySpellingsOf,
  enumProbes,
  integerProbes,
  itemSpellings,
  pathSpellings,
  undocumentedMethods,
  type Spelling,
} from '../api/input-space.js';
export type { CredentialKind } from '../api/credentials.js';
export { isRemoved, type Operation } from '../api/spec.js';
export { newPetProperties, type NegativeFamily } from '../api/bodies.js';
export { integerText, isInteger, parseJson, sameJson, showJson } from '../model/json.js';
export { plural } from '../model/words.js';
export { nextTurn } from '../model/turns.js';
export { latencyByOperation } from '../http/latency.js';
export { isRateLimit, isSafeMethod, isServerError, type Exchange } from '../http/exchange.js';
export type { LatencyStats } from '../model/types.js';
export { formatDuration } from '../verdict/report.js';
export { absentFrom, animalsShown, missingFrom, pageItems, sentNewPet, type RunAnimal } from './animals.js';
export { favouredStatus, type CreatedPet } from './seeding.js';
export type { ListPages } from './list-pages.js';
export { unlikelyId } from './probes.js';
export { brief, canonicalText, difference, isBroken, refusalCounts, sameMeaning, type RoundTrip } from './round-trip.js';
export type { Examples } from './examples.js';
