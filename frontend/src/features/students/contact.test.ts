import { describe, expect, it } from 'vitest';
import { differingSyncedContact, phoneKey } from './contact';

const base = {
  parent_contact_source: 'staff' as const,
  parent_name: 'Ibu Sari',
  parent_phone: '0812-3456-7890',
  synced_parent_name: 'Ibu Sari',
  synced_parent_phone: '+62 812 3456 7890',
};

describe('phoneKey', () => {
  it('writes one number one way', () => {
    expect(phoneKey('0812-3456-7890')).toBe('6281234567890');
    expect(phoneKey('+62 812 3456 7890')).toBe('6281234567890');
    expect(phoneKey('812 3456 7890')).toBe('6281234567890');
    expect(phoneKey('0060 12 345 6789')).toBe('60123456789');
  });
});

describe('differingSyncedContact', () => {
  it('is null when the contact follows student affairs', () => {
    expect(differingSyncedContact({ ...base, parent_contact_source: 'sync', parent_name: 'Lain' })).toBeNull();
  });
  it('is null when only the writing of the number differs', () => {
    expect(differingSyncedContact(base)).toBeNull();
  });
  it('names student affairs’ values when they differ', () => {
    expect(differingSyncedContact({ ...base, synced_parent_phone: '0857-1111-2222' })).toEqual({ name: 'Ibu Sari', phone: '0857-1111-2222' });
    expect(differingSyncedContact({ ...base, synced_parent_name: 'Bapak Budi' })).toEqual({ name: 'Bapak Budi', phone: '+62 812 3456 7890' });
  });
  it('is null when student affairs has nothing', () => {
    expect(differingSyncedContact({ ...base, parent_name: 'X', synced_parent_name: '', synced_parent_phone: '' })).toBeNull();
  });
});
