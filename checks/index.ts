import type { Check } from '../harness/run/check.js';
import { AUTH_CHECKS } from './auth.js';
import { ERRORS_CHECKS } from './errors.js';
import { MEDIA_CHECKS } from './media.js';
import { HTTP_CHECKS } from './http.js';
import { LIST_CHECKS, LIST_PAGES } from './list.js';
import { CREATE_CHECKS } from './create.js';
import { GET_CHECKS } from './get.js';
import { ORDERS_CHECKS } from './orders.js';
import { QUICKSTART_CHECKS } from './quickstart.js';
import { PERFORMANCE_CHECKS } from './performance.js';

export function conformanceChecks(): Check[] {
  return [
    AUTH_CHECKS,
    ERRORS_CHECKS,
    MEDIA_CHECKS,
    HTTP_CHECKS,
    LIST_CHECKS,
    CREATE_CHECKS,
    GET_CHECKS,
    ORDERS_CHECKS,
    QUICKSTART_CHECKS,
    PERFORMANCE_CHECKS,
  ].flat();
}

/** What a run is given: the checks, and the list pages it fetches once for the checks that judge them. */
export const conformanceSuite = () => ({ checks: conformanceChecks(), listPages: LIST_PAGES });
