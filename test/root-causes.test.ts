// Root causes first: a stored value that breaks every Pet it is in (an id beyond int64)
// fails CREATE-OK and, through the pages and reads that show those animals, the list
// and getPet checks. Those say they follow from CREATE-OK and are listed after it.
import { describe, expect, it } from 'vitest';
import { certifyReference } from './support/run.js';
import { formatSummary } from '../reporters/console.js';
import { renderJunit } from '../reporters/junit.js';

describe('root causes', () => {
  it('failures that follow from a stored value name their cause and come after it', async () => {
    const report = await certifyReference({ faults: ['ids-beyond-int64'] }, { consistencyWindowMs: 500 });
    const failed = report.requirements.filter((r) => r.outcome === 'failed');
    const followers = failed.filter((r) => r.followsFrom === 'CREATE-OK').map((r) => r.id);
    expect(followers).toEqual(expect.arrayContaining(['LIST-OK', 'LIST-LIMIT-DEFAULT', 'GET-OK']));
    const at = (id: string) => report.requirements.findIndex((r) => r.id === id);
    for (const id of followers) expect(at(id)).toBeGreaterThan(at('CREATE-OK'));
    expect(report.requirements.find((r) => r.id === 'CREATE-OK')!.followsFrom).toBeUndefined();
    expect(formatSummary(report, [])).toMatch(/FAIL LIST-OK \(MUST\) .* \(follows from CREATE-OK\)/);
    expect(renderJunit(report)).toContain('follows from CREATE-OK, listed before it');
  });

  it('a failure of its own names no cause', async () => {
    const report = await certifyReference({ faults: ['list-envelope'] }, { consistencyWindowMs: 500 });
    expect(report.requirements.filter((r) => r.followsFrom)).toEqual([]);
  });
});
