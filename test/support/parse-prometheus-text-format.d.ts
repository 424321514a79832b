// The package ships no types; test/support/prometheus.ts gives the parse result its shape.
declare module 'parse-prometheus-text-format' {
  const parse: (text: string) => unknown[];
  export default parse;
}
