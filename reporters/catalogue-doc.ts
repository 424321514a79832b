// The requirement catalogue as text: `--list` prints it, docs/requirements.md is
// generated from it (`npm run docs`; a test fails when the file is stale).
import type { Requirement } from '../harness/model/types.js';
import { AREAS } from '../harness/api/catalogue.js';

export function formatCatalogueList(catalogue: Requirement[]): string {
  const width = Math.max(...catalogue.map((r) => r.id.length));
  return catalogue.map((r) => `${r.id.padEnd(width)}  ${r.level.padEnd(6)}  ${r.area.padEnd(11)}  ${r.profiles.join(',').padEnd(14)}  ${r.title}`).join('\n');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

export function renderRequirementsDoc(catalogue: Requirement[]): string {
  const count = (level: string, area?: string) => catalogue.filter((r) => r.level === level && (!area || r.area === area)).length;
  const lines = [
    '# Requirements',
    '',
    '<!-- Generated from spec/requirements.yaml by `npm run docs`; do not edit by hand. -->',
    '',
    `${catalogue.length} requirements: ${count('MUST')} MUST, ${count('SHOULD')} SHOULD. ` +
      'Each is checked by `checks/<area>.ts` (search for its id). Profiles: `certify` may create data; `health` sends nothing a conforming server would store.',
    '',
    '| Area | MUST | SHOULD |',
    '|---|---|---|',
    ...AREAS.filter((a) => catalogue.some((r) => r.area === a)).map((a) => `| ${a} | ${count('MUST', a)} | ${count('SHOULD', a)} |`),
  ];
  for (const area of AREAS) {
    const entries = catalogue.filter((r) => r.area === area);
    if (entries.length === 0) continue;
    lines.push('', `## ${area}`);
    for (const r of entries) {
      lines.push(
        '',
        `### ${r.id}`,
        '',
        `**${r.level}** · operation \`${r.operation}\` · profiles: ${r.profiles.join(', ')}`,
        '',
        cell(r.title),
        '',
        `> ${cell(r.source)}`,
      );
      if (r.accepts) lines.push('', `Accepts: ${cell(r.accepts)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
