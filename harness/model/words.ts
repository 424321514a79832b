/** plural(1, 'request') is "1 request", plural(2, 'retry', 'retries') "2 retries". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
