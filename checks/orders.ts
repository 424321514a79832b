// GET /store/orders: only its existence is documented.
import { check, fail, type Check } from '../harness/run/kit.js';

export const ORDERS_CHECKS: Check[] = [
  check('ORDERS-EXISTS', async (ctx) => {
    const ex = await ctx.probes.withKey('listOrders');
    ctx.cite(ex);
    const exists = ex.succeeded || (ex.status >= 400 && ex.status < 500 && ex.status !== 404 && ex.status !== 405);
    if (!exists) fail(`listOrders with the key: ${ex.summary}; the description says the operation exists`, ex);
  }),
];
