import type { Student } from './types';

/** The digits a phone number reaches, written the international way: "0812-3456" and "+62 812 3456" are one number. */
export function phoneKey(raw: string): string {
  let d = raw.trim().replace(/[^\d+]/g, '');
  if (d.startsWith('+')) d = d.slice(1);
  else if (d.startsWith('00')) d = d.slice(2);
  else if (d.startsWith('0')) d = `62${d.slice(1)}`;
  else if (d.startsWith('8')) d = `62${d}`;
  return d.replace(/\D/g, '');
}

/**
 * What student affairs says, when staff edited the contact and it says something else (and says
 * anything at all: handing back to an empty record would only erase the number).
 */
export function differingSyncedContact(s: Pick<Student, 'parent_contact_source' | 'parent_name' | 'parent_phone' | 'synced_parent_name' | 'synced_parent_phone'>): { name: string; phone: string } | null {
  if (s.parent_contact_source !== 'staff') return null;
  const name = s.synced_parent_name.trim();
  const phone = s.synced_parent_phone.trim();
  if (!name && !phone) return null;
  const sameName = name === s.parent_name.trim();
  const samePhone = phoneKey(phone) === phoneKey(s.parent_phone);
  return sameName && samePhone ? null : { name, phone };
}
