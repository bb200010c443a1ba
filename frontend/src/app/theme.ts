import {
  DEFAULT_THEME,
  createTheme,
  darken,
  defaultVariantColorsResolver,
  parseThemeColor,
  toRgba,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type VariantColorsResolver,
} from '@mantine/core';
import i18n from '@/i18n';

/**
 * Colours that every screen gets right by default: text at least 4.5:1 against what it sits on
 * (WCAG 2 AA), decided here once instead of per screen.
 *
 * - Filled things (buttons, badges, the primary colour) use shade 8, and their text is white
 *   when white reaches 4.5:1 on it, else black (yellow, orange, lime, green, teal, cyan).
 * - Light, subtle, outline and transparent variants (badges, the active menu item, light
 *   buttons) get a text colour darkened until it reaches 4.5:1 on their tinted background.
 * - "dimmed" text (`c="dimmed"`, descriptions, secondary lines) is gray.6, darkened from
 *   Mantine's #868e96 (3.3:1 on white) to #646b72 (5.4:1 on white, 4.9:1 on gray.1).
 * - Placeholders (gray.5) are 4.7:1 on white instead of 2.1:1.
 * - Links (anchor colour = primary shade 8) are 5:1 on white.
 */

/** WCAG AA for normal-size text, with a hair of margin for rounding in the browser. */
export const MIN_CONTRAST = 4.6;

type Rgb = { r: number; g: number; b: number };

function rgb(color: string): Rgb {
  const { r, g, b } = toRgba(color);
  return { r, g, b };
}

function channel(c: number): number {
  const v = c / 255;
  return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of an sRGB colour. */
export function relativeLuminance(color: string): number {
  const { r, g, b } = rgb(color);
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG contrast ratio of two opaque colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const x = relativeLuminance(a);
  const y = relativeLuminance(b);
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

function hex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

/** `color` at opacity `alpha` over an opaque background, as the eye sees it. */
export function over(color: string, alpha: number, background = '#ffffff'): string {
  const f = rgb(color);
  const b = rgb(background);
  return hex({ r: f.r * alpha + b.r * (1 - alpha), g: f.g * alpha + b.g * (1 - alpha), b: f.b * alpha + b.b * (1 - alpha) });
}

/** `base`, darkened step by step until it reaches MIN_CONTRAST on `background`. */
export function readableOn(background: string, base: string): string {
  let c = hex(rgb(base));
  for (let i = 0; i < 20 && contrastRatio(c, background) < MIN_CONTRAST; i++) c = hex(rgb(darken(c, 0.1)));
  return c;
}

/** White on `background` when it reaches 4.5:1 (red.8 does, just), else black. */
export function textOn(background: string): string {
  return contrastRatio('#ffffff', background) >= 4.5 ? '#ffffff' : '#000000';
}

const PRIMARY_SHADE = 8;

/**
 * Mantine's gray with darker shades 5 (placeholders, which WCAG counts as text: #adb5bd was
 * 2.1:1) and 6 (the "dimmed" text colour).
 */
const gray: MantineColorsTuple = [
  DEFAULT_THEME.colors.gray[0],
  DEFAULT_THEME.colors.gray[1],
  DEFAULT_THEME.colors.gray[2],
  DEFAULT_THEME.colors.gray[3],
  DEFAULT_THEME.colors.gray[4],
  '#6e757c',
  '#646b72',
  DEFAULT_THEME.colors.gray[7],
  DEFAULT_THEME.colors.gray[8],
  DEFAULT_THEME.colors.gray[9],
];

/**
 * Every colour's shade 9 darkened until it reads at 4.5:1 on gray.0 (the page background):
 * `c="orange.9"` and friends are what screens use for coloured text. Mantine's orange.9
 * (#d9480f) is 4.1:1 there, yellow.9 2.6:1. Shades 0–8 (backgrounds, filled things) stay.
 */
const readableNine = Object.fromEntries(
  Object.entries(DEFAULT_THEME.colors)
    .filter(([name]) => name !== 'gray' && name !== 'dark')
    .map(([name, tuple]) => [name, [...tuple.slice(0, 9), readableOn(DEFAULT_THEME.colors.gray[0], tuple[9])] as unknown as MantineColorsTuple]),
);

/**
 * Mantine's variant colours, with the text colour chosen for contrast. Backgrounds stay
 * Mantine's (same CSS variables, so hover states and dark shades still work).
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const out = defaultVariantColorsResolver(input);
  const { theme, variant } = input;
  if (!input.color) return out;
  const parsed = parseThemeColor({ color: input.color, theme });
  if (!parsed.value || parsed.value.startsWith('var(')) return out;
  // The colour the background is made from: a theme colour without a shade uses the primary shade.
  const base = parsed.isThemeColor && parsed.shade === undefined ? theme.colors[parsed.color]![PRIMARY_SHADE]! : parsed.value;
  const darkest = parsed.isThemeColor ? theme.colors[parsed.color]![9]! : base;
  switch (variant) {
    case 'filled':
      return { ...out, color: textOn(base) };
    case 'light':
      return { ...out, color: readableOn(over(base, 0.12), darkest) };
    case 'subtle':
    case 'outline':
    case 'transparent':
      return { ...out, color: readableOn(over(base, 0.12), darkest) };
    default:
      return out;
  }
};

/**
 * Field errors: Mantine writes them in red.6 (#fa5252, 3.3:1 on white); red.9 is 5.4:1 on white
 * and on the light red an invalid input is tinted with.
 */
export const ERROR_SHADE = 9;

/** Mantine's CSS variables with the error colour readable (MantineProvider's cssVariablesResolver). */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-error': `var(--mantine-color-red-${ERROR_SHADE})` },
  dark: {},
});

export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: PRIMARY_SHADE, dark: PRIMARY_SHADE },
  colors: { ...readableNine, gray },
  variantColorResolver,
  defaultRadius: 'md',
  // Plain objects, not Component.extend: extend imports the component into the first
  // download (Menu brings Popover and floating-ui: +24 kB gzip on the sign-in page).
  components: {
    // Without a colour Mantine's NavLink skips the resolver and uses blue.8 on its own tint (4.4:1).
    NavLink: { defaultProps: { color: 'blue' } },
    // The placeholder is a <div> inside role="menu", which allows only menu items (axe:
    // aria-required-children); without it the first item takes the focus, as menus should.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // A loader is a <span>: its aria-label ("Memuat…") needs a role to be allowed (axe:
    // aria-prohibited-attr); "status" also has it announced.
    Loader: { defaultProps: { role: 'status' } },
    // A notification's close button is an icon: without a name a screen reader says only
    // "button" (axe: button-name). A function, so the name is read in the language of the
    // moment each time a notification renders. A plain object, not Notification.extend, so
    // the entry does not pull in the Notification component.
    Notification: { defaultProps: () => ({ closeButtonProps: { 'aria-label': i18n.t('actions.close') } }) },
  },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif',
  headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif' },
});
