// The settings as documentation; `npm run docs` writes them and a test fails when any is stale. Light: --help reads it.
import { ENV_FILE_SETTING, SETTINGS, defaultOf, plain, type SettingDoc } from './settings.js';

const ALL: SettingDoc[] = [...Object.values<SettingDoc>(SETTINGS), ENV_FILE_SETTING];

export function helpRows(): string[] {
  return ALL.map((s) => {
    const fallback = defaultOf(s);
    return (
      `  --${s.flag}${s.boolean ? '' : ' <value>'}`.padEnd(34) + s.env.padEnd(22) + plain(s.description) + (fallback ? ` (default: ${plain(fallback)})` : '')
    );
  });
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

function renderSettingsTable(): string {
  return [
    '| Variable | Flag | Default | Meaning |',
    '|---|---|---|---|',
    ...ALL.map((s) => `| \`${s.env}\` | \`--${s.flag}\` | ${cell(defaultOf(s) ?? 'none')} | ${cell([s.description, s.details].filter(Boolean).join(' '))} |`),
  ].join('\n');
}

const BEGIN = '<!-- settings:begin: generated from harness/config/settings.ts by `npm run docs`; do not edit by hand -->';
const END = '<!-- settings:end -->';

/** Throws when the markers are missing. */
export function withSettingsTable(readme: string): string {
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the markers ${BEGIN} and ${END}`);
  return `${readme.slice(0, start)}${BEGIN}\n${renderSettingsTable()}\n${readme.slice(end)}`;
}

export function renderEnvExample(): string {
  const lines = [
    '# Generated from harness/config/settings.ts by `npm run docs`; do not edit by hand.',
    '# Copy to .env and uncomment what you set. Flags override the environment, which overrides this file.',
    '# With TARGET=embedded, or with no BASE_URL and no API_KEY, QUICKSTART_BASE_URL or other setting naming',
    '# a target, the embedded reference server is started and certified.',
    '# A setting given with an empty value (API_KEY=) is an error, not its default:',
    '# fill it in, or leave the line commented out.',
  ];
  for (const s of Object.values<SettingDoc>(SETTINGS)) {
    const fallback = s.default === undefined ? s.defaultDoc : undefined;
    lines.push('', `# ${plain(s.description)}${fallback ? ` (default: ${plain(fallback)})` : ''}`);
    lines.push(`#${s.env}=${s.secret ? '' : (s.example ?? s.default ?? '')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** An input left out must leave its variable unset (the action unsets it), not empty, which the suite refuses. */
export const ACTION_UNSET = '(unset)';

/** As Prettier writes it: single quotes, unless the text holds more of them than double quotes. */
const yamlString = (text: string) =>
  (text.match(/'/g)?.length ?? 0) > (text.match(/"/g)?.length ?? 0) ? JSON.stringify(text) : `'${text.replace(/'/g, "''")}'`;

function renderActionInputs(indent = '  '): string[] {
  return ALL.flatMap((s) => {
    const fallback = defaultOf(s);
    const description = `${plain(s.description)}${fallback ? ` Default: ${plain(fallback)}.` : ''}`;
    return [`${s.flag}:`, `  description: ${yamlString(description)}`, '  required: false', `  default: ${yamlString(ACTION_UNSET)}`].map((l) => indent + l);
  });
}

function renderActionEnv(indent = '        '): string[] {
  return ALL.map((s) => `${indent}${s.env}: \${{ inputs.${s.flag} }}`);
}

/** The parts between `# inputs:begin` and `# inputs:end`, `# env:begin` and `# env:end` made anew; throws when a marker is missing. */
export function withActionSettings(yml: string): string {
  let out = yml;
  for (const [part, render] of [
    ['inputs', renderActionInputs],
    ['env', renderActionEnv],
  ] as const) {
    const begin = new RegExp(`^( *)# ${part}:begin[^\\n]*\\n`, 'm').exec(out);
    const end = new RegExp(`^ *# ${part}:end`, 'm').exec(out);
    if (!begin || !end || end.index < begin.index) throw new Error(`action.yml lacks the markers # ${part}:begin and # ${part}:end`);
    out = `${out.slice(0, begin.index + begin[0].length)}${render(begin[1]).join('\n')}\n${out.slice(end.index)}`;
  }
  return out;
}
