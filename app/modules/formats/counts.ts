/** A count with its noun, as the founder's screens and e-mails write it: '1 scan', '1,204 scans', '3 people'. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString("en-US")} ${pluralWord(count, singular, pluralForm)}`;
}

/**
 * The words alone that go with a count: 'scan' for one, 'scans' for any other number; the plural form when it is
 * not the singular with an s ('person is', 'people are'). For a label beside its number, or a count written
 * without digit grouping (`${n} ${pluralWord(n, "second")}`).
 */
export function pluralWord(count: number, singular: string, pluralForm = `${singular}s`): string {
  return count === 1 ? singular : pluralForm;
}
