// Registers every check. Find the check for a requirement id by searching for it.
import './auth.js';
import './errors.js';
import './media.js';
import './list.js';
import './create.js';
import './get.js';
import './orders.js';
import './quickstart.js';
import './performance.js';
