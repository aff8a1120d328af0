/** A count with its noun, as the founder's screens and e-mails write it: '1 scan', '1,204 scans', '3 people'. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? singular : pluralForm}`;
}
