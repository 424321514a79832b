// The settings as documentation, all from their declarations (SETTINGS): the rows of
// --help, the README's table and .env.example. `npm run docs` writes the README's
// table and .env.example; a test fails when either is stale. Light: --help reads it.
import { ENV_FILE_SETTING, SETTINGS, type SettingDoc } from './settings.js';

const ALL: SettingDoc[] = [...Object.values<SettingDoc>(SETTINGS), ENV_FILE_SETTING];

/** Markdown to plain text: --help and .env.example show `code` without its backticks. */
const plain = (text: string) => text.replace(/`/g, '');

/** The default as written in the docs, in Markdown; undefined when leaving the setting out means nothing is set. */
function defaultOf(s: SettingDoc): string | undefined {
  return s.default !== undefined ? `\`${s.default}\`` : s.defaultDoc;
}

/** One row of --help per setting, the settings file included. */
export function helpRows(): string[] {
  return ALL.map((s) => {
    const fallback = defaultOf(s);
    return (
      `  --${s.flag}${s.boolean ? '' : ' <value>'}`.padEnd(34) + s.env.padEnd(22) + plain(s.description) + (fallback ? ` (default: ${plain(fallback)})` : '')
    );
  });
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function renderSettingsTable(): string {
  return [
    '| Variable | Flag | Default | Meaning |',
    '|---|---|---|---|',
    ...ALL.map((s) => `| \`${s.env}\` | \`--${s.flag}\` | ${cell(defaultOf(s) ?? 'none')} | ${cell([s.description, s.details].filter(Boolean).join(' '))} |`),
  ].join('\n');
}

const BEGIN = '<!-- settings:begin: generated from harness/config/settings.ts by `npm run docs`; do not edit by hand -->';
const END = '<!-- settings:end -->';

/** The README with the table between its markers generated anew; throws when the markers are missing. */
export function withSettingsTable(readme: string): string {
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the markers ${BEGIN} and ${END}`);
  return `${readme.slice(0, start)}${BEGIN}\n${renderSettingsTable()}\n${readme.slice(end)}`;
}

/** .env.example: every setting of the table, commented out, with its default or an example; keys empty. */
export function renderEnvExample(): string {
  const lines = [
    '# Generated from harness/config/settings.ts by `npm run docs`; do not edit by hand.',
    '# Copy to .env and uncomment what you set. Flags override the environment, which overrides this file.',
    '# With no BASE_URL, the embedded reference server is started and certified.',
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
