import { describe, expect, it } from 'vitest';
import { navCatalogues } from '../../scripts/nav-catalogue.mjs';
import i18n, { FEATURE_NAMESPACES, LANGUAGES, loadNavCatalogue, navLabelKey } from './index';
import { navItems } from '@/registry';

function lookup(tree: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown> | undefined)?.[p], tree);
}

describe('the navigation catalogue', () => {
  it('maps a feature key to the nav namespace', () => {
    expect(navLabelKey('violations:nav')).toBe('nav:violations.nav');
    expect(navLabelKey('achievements:nav.list')).toBe('nav:achievements.nav.list');
    expect(navLabelKey('plain')).toBe('plain');
  });

  it('has a label for every nav item in every language', () => {
    const { catalogues } = navCatalogues();
    expect(navItems.length).toBeGreaterThan(10);
    for (const lang of LANGUAGES) {
      for (const item of navItems) {
        const key = navLabelKey(item.labelKey);
        expect(key.startsWith('nav:'), item.labelKey).toBe(true);
        const [feature, ...rest] = key.slice('nav:'.length).split('.');
        // The namespace resources are { <feature>: { nav: … } }.
        const value = lookup({ nav: catalogues[lang]?.[feature!] }, rest.join('.'));
        expect(typeof value === 'string' && value !== '', `${lang} ${item.labelKey}`).toBe(true);
      }
    }
  });

  it('lists every feature folder with a catalogue as a namespace to load', () => {
    expect(FEATURE_NAMESPACES).toContain('violations');
    expect(FEATURE_NAMESPACES).toContain('dashboard');
    expect(FEATURE_NAMESPACES).not.toContain('common');
  });

  it('gives i18next the labels, and a feature\'s catalogue once asked for', async () => {
    await loadNavCatalogue();
    expect(i18n.t(navLabelKey('violations:nav'))).not.toContain('nav');
    expect(i18n.hasLoadedNamespace('early-warnings')).toBe(false);
    await i18n.loadNamespaces('early-warnings');
    expect(i18n.hasLoadedNamespace('early-warnings')).toBe(true);
    expect(i18n.t('early-warnings:nav')).toBe(i18n.t(navLabelKey('early-warnings:nav')));
  });
});
