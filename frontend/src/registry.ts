import type { FeatureModule, FeatureRoute, NavItem } from '@/app/feature';

/**
 * The feature registry: every `src/features/<name>/index.ts(x)` is picked up here, so a
 * new feature is a new folder and nothing else.
 */
const modules = import.meta.glob<FeatureModule>('./features/*/index.{ts,tsx}', { eager: true });

export interface RegisteredFeature {
  /** The folder name; also the feature's i18n namespace. */
  id: string;
  routes: FeatureRoute[];
  nav: NavItem[];
}

export function collectFeatures(mods: Record<string, FeatureModule>): RegisteredFeature[] {
  const out = Object.entries(mods).map(([file, m]) => ({
    id: /\.\/features\/([^/]+)\//.exec(file)?.[1] ?? file,
    // Each page's catalogues: its own feature's first (the namespace is the folder name).
    routes: (m.routes ?? []).map((r) => ({ ...r, namespaces: [...new Set([/\.\/features\/([^/]+)\//.exec(file)?.[1] ?? file, ...(r.namespaces ?? [])])] })),
    nav: m.nav ?? [],
  }));
  const seen = new Map<string, string>();
  for (const f of out) {
    for (const r of f.routes) {
      const other = seen.get(r.path);
      if (other) throw new Error(`route ${r.path} is registered by both ${other} and ${f.id}`);
      seen.set(r.path, f.id);
    }
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

export const features: RegisteredFeature[] = collectFeatures(modules);
export const featureRoutes: FeatureRoute[] = features.flatMap((f) => f.routes);
export const navItems: NavItem[] = features.flatMap((f) => f.nav);
