// Types of the undici modules harness/http/undici.ts loads one by one (undici types its
// package as a whole): each is CommonJS, its module.exports the default import.
declare module 'undici/lib/dispatcher/dispatcher.js' {
  import { Dispatcher } from 'undici';
  export default Dispatcher;
}
declare module 'undici/lib/api/api-connect.js' {
  import { Dispatcher } from 'undici';
  const connect: Dispatcher['connect'];
  export default connect;
}
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import { EnvHttpProxyAgent } from 'undici';
  export default EnvHttpProxyAgent;
}
declare module 'undici/lib/core/util.js' {
  const util: {
    /** Raw header lines (name, value, ...) as an object: names lower-cased, a repeated header's values in an array. */
    parseHeaders(headers: Buffer[]): Record<string, string | string[] | undefined>;
  };
  export default util;
}
