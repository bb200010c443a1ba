/** "Budi Santoso" → "BS"; one word → its first letter; nothing → "?". For avatars. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const picked = words.length === 1 ? [words[0]!] : [words[0]!, words[words.length - 1]!];
  return picked.map((w) => w[0]!.toUpperCase()).join('');
}
