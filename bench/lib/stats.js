// Small statistics and formatting helpers shared by the benchmark sections.

export function median(values) {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summarize(samples) {
  if (!samples.length) return null;
  return { median: median(samples), min: Math.min(...samples), max: Math.max(...samples), n: samples.length };
}

export function ms(value) {
  if (value == null) return '—';
  if (value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  return `${value.toFixed(0)} ms`;
}

export function ratio(numerator, denominator) {
  if (numerator == null || denominator == null || denominator === 0) return null;
  return numerator / denominator;
}

export function fmtRatio(value) {
  return value == null ? '—' : `${value.toFixed(2)}×`;
}

/** "within target" / "over target": information for the reader, never an assertion. */
export function verdict(value, target) {
  if (value == null) return 'not measured';
  return value <= target ? `within target ≤ ${target}×` : `over target ≤ ${target}×`;
}

export function bytes(value) {
  if (value == null) return '—';
  if (value >= 1024 * 1024) return `${(value / (1024 * 1024)).toFixed(1)} MB`;
  if (value >= 1024) return `${(value / 1024).toFixed(0)} KB`;
  return `${value} B`;
}

export function kb(value) {
  return value == null ? '—' : `${Math.round(value / 1024)} MB`;
}

export function int(value) {
  return value == null ? '—' : value.toLocaleString('en-US');
}

/** Renders rows (arrays of strings) as an aligned plain-text table; numeric-looking cells align right. */
export function table(header, rows) {
  const all = [header, ...rows].map((row) => row.map((cell) => String(cell ?? '')));
  const widths = header.map((_, column) => Math.max(...all.map((row) => [...(row[column] ?? '')].length)));
  const numeric = (text) => /^[\d.,<>≤~-]+( ?[a-zA-Z×%]+)?$|^—$/.test(text);
  const line = (row) =>
    row
      .map((cell, column) => {
        const pad = ' '.repeat(Math.max(0, widths[column] - [...cell].length));
        return column > 0 && numeric(cell) ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(all[0]), rule, ...all.slice(1).map(line)].join('\n');
}
