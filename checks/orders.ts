// GET /store/orders: only its existence is documented. Its authentication is checked
// with every other operation in checks/auth.ts, where this same call shows it exists.
import { check, fail, type Check } from '../harness/run/kit.js';

export const ORDERS_CHECKS: Check[] = [
  // A 2xx shows it, and so does a 4xx other than 404 and 405 (a key without access to
  // orders may get 403); a 404, 405, a server error or a redirect to another origin does not
  // (a same-origin redirect is followed by the client, and its answer judged).
  check('ORDERS-EXISTS', async (ctx) => {
    const ex = await ctx.probes.withKey('listOrders');
    ctx.cite(ex);
    const exists = ex.succeeded || (ex.status >= 400 && ex.status < 500 && ex.status !== 404 && ex.status !== 405);
    if (!exists) fail(`listOrders with the key: ${ex.summary}; the description says the operation exists`, ex);
  }),
];
