/** A string matched literally inside a RegExp: its metacharacters (and '/') escaped. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
