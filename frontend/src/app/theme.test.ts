import { describe, expect, it } from 'vitest';
import { mergeMantineTheme, DEFAULT_THEME } from '@mantine/core';
import { ERROR_SHADE, contrastRatio, cssVariablesResolver, over, readableOn, textOn, theme } from './theme';

const full = mergeMantineTheme(DEFAULT_THEME, theme);
const COLORS = Object.keys(DEFAULT_THEME.colors).filter((c) => c !== 'dark');

describe('contrastRatio', () => {
  it('matches the WCAG figures', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#868e96', '#ffffff')).toBeCloseTo(3.32, 2);
    expect(contrastRatio('#ffffff', '#fab005')).toBeCloseTo(1.86, 2);
  });
});

describe('theme colours reach WCAG AA (4.5:1) for text', () => {
  it.each(COLORS)('%s: filled, light, subtle and outline variants', (color) => {
    const base = full.colors[color]![8]!;
    const filled = full.variantColorResolver({ color, theme: full, variant: 'filled' });
    expect(contrastRatio(filled.color, base), 'filled').toBeGreaterThanOrEqual(4.5);
    for (const variant of ['light', 'subtle', 'outline', 'transparent']) {
      const v = full.variantColorResolver({ color, theme: full, variant });
      expect(contrastRatio(v.color, over(base, 0.12)), variant).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(v.color, '#ffffff'), `${variant} on white`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('holds for colours given with a shade and as hex', () => {
    for (const color of ['yellow.6', 'orange.5', 'red.6', '#fab005', '#40c057']) {
      const filled = full.variantColorResolver({ color, theme: full, variant: 'filled' });
      const bg = color.startsWith('#') ? color : full.colors[color.split('.')[0]!]![Number(color.split('.')[1])]!;
      expect(contrastRatio(filled.color, bg), color).toBeGreaterThanOrEqual(4.5);
      const light = full.variantColorResolver({ color, theme: full, variant: 'light' });
      expect(contrastRatio(light.color, over(bg, 0.12)), `${color} light`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('dimmed text (gray.6) on white, gray.0 and gray.1', () => {
    const dimmed = full.colors.gray[6];
    for (const bg of ['#ffffff', full.colors.gray[0], full.colors.gray[1]]) {
      expect(contrastRatio(dimmed, bg), bg).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('field errors on white and on the tint of an invalid input', () => {
    expect(cssVariablesResolver(full).light['--mantine-color-error']).toBe(`var(--mantine-color-red-${ERROR_SHADE})`);
    const error = full.colors.red[ERROR_SHADE];
    for (const bg of ['#ffffff', over(full.colors.red[6], 0.1)]) {
      expect(contrastRatio(error, bg), bg).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('placeholders (gray.5) on white', () => {
    expect(contrastRatio(full.colors.gray[5], '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('links and the primary colour (shade 8) on white and gray.0', () => {
    const anchor = full.colors.blue[8];
    expect(contrastRatio(anchor, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(anchor, full.colors.gray[0])).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#ffffff', anchor)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('coloured text on screens', () => {
  it('every colour\'s shade 9 reads at 4.5:1 on white and gray.0', () => {
    for (const color of COLORS) {
      for (const bg of ['#ffffff', full.colors.gray[0]]) {
        expect(contrastRatio(full.colors[color]![9]!, bg), `${color}.9 on ${bg}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('c="colour.shade" in the source reads at 4.5:1 on gray.0 (the kiosk\'s light gray on black aside)', () => {
    const sources = import.meta.glob('/src/**/*.tsx', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
    const used = new Set<string>();
    for (const [file, text] of Object.entries(sources)) {
      for (const m of text.matchAll(/\bc="([a-z]+)\.(\d)"/g)) {
        if (file.includes('/kiosk/') && m[1] === 'gray') continue;
        used.add(`${m[1]}.${m[2]}`);
      }
    }
    expect(used.size).toBeGreaterThan(3);
    for (const c of used) {
      const [name, shade] = c.split('.');
      expect(contrastRatio(full.colors[name!]![Number(shade)]!, full.colors.gray[0]), c).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('readableOn / textOn', () => {
  it('darkens until readable, keeps what already is', () => {
    expect(readableOn('#ffffff', '#000000')).toBe('#000000');
    expect(contrastRatio(readableOn('#fff9db', '#fab005'), '#fff9db')).toBeGreaterThanOrEqual(4.5);
    expect(textOn('#1971c2')).toBe('#ffffff');
    expect(textOn('#fab005')).toBe('#000000');
  });
});

describe('notification close button', () => {
  it('has a name, in the language of the moment', async () => {
    const i18n = (await import('@/i18n')).default;
    const props = () => (full.components.Notification!.defaultProps as (t: typeof full) => { closeButtonProps: Record<string, string> })(full);
    await i18n.changeLanguage('id');
    expect(props().closeButtonProps['aria-label']).toBe('Tutup');
    await i18n.changeLanguage('en');
    expect(props().closeButtonProps['aria-label']).toBe('Close');
    await i18n.changeLanguage('id');
  });
});
