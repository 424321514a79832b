// GET /store/orders: only its existence is documented (its authentication is
// checked with every other operation in checks/auth.ts).
import { check } from '../harness/registry.js';
import { fail } from '../harness/outcome.js';

check('ORDERS-EXISTS', async (ctx) => {
  const ex = await ctx.call('listOrders');
  if (ex.status === 404 || ex.status === 405 || ex.status >= 500) {
    fail(`listOrders with the key: ${ex.summary}; the description says the operation exists`, ex);
  }
});
