import { describe, expect, it } from 'vitest';
import { phoneLinks } from './phone';

describe('phone links', () => {
  it('turns a mobile number into tap-to-call and WhatsApp links, 08… as 628…', () => {
    expect(phoneLinks('0812-3456-7890')).toEqual({ tel: 'tel:081234567890', whatsapp: 'https://wa.me/6281234567890' });
    expect(phoneLinks('+62 812 3456 7890')).toEqual({ tel: 'tel:+6281234567890', whatsapp: 'https://wa.me/6281234567890' });
    expect(phoneLinks('6281234567890')?.whatsapp).toBe('https://wa.me/6281234567890');
  });
  it('calls a landline but offers no WhatsApp', () => {
    expect(phoneLinks('(022) 1234567')).toEqual({ tel: 'tel:0221234567', whatsapp: null });
  });
  it('ignores what is not a number', () => {
    expect(phoneLinks('')).toBeNull();
    expect(phoneLinks('-')).toBeNull();
    expect(phoneLinks(null)).toBeNull();
  });
});
