/** Items as a sentence names them: "A", "A and B", "A, B and C". */
export function listedWithAnd(items: readonly string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
