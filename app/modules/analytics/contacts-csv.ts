const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell starting with =, +, -, @, tab or CR is run by spreadsheets as a formula: prefix it with an apostrophe. */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** `{project title with spaces as hyphens}-contacts.csv`, without characters a file name cannot hold. */
export function csvFileName(title: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a file name cannot hold
  const safe = title.trim().replace(/\s+/g, "-").replace(/[\\/:*?"<>|\u0000-\u001f]/g, "");
  return `${safe || "project"}-contacts.csv`;
}
