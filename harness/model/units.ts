export const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

export function sizeSetting(bytes: number): string {
  for (const unit of ['GiB', 'MiB', 'KiB']) {
    const n = bytes / SIZE_UNITS[unit.toLowerCase()];
    if (Number.isInteger(n)) return `${n}${unit}`;
  }
  return String(bytes);
}

/** "16 MiB", "512 KiB", "1000 bytes" */
export function formatSize(bytes: number): string {
  const setting = sizeSetting(bytes);
  return /^\d+$/.test(setting) ? `${setting} bytes` : setting.replace(/^(\d+)/, '$1 ');
}

/** "10 s", "1.5 s", "0.25 s" */
export const formatSeconds = (ms: number) => `${durationSetting(ms).replace(/s$/, '')} s`;

export const durationSetting = (ms: number) => `${Number((ms / 1000).toFixed(2))}s`;
