import type { Resource } from 'i18next';
import { buildResources, resources, type Catalogue } from './index';

/** Every feature's catalogues in both languages (namespace = the feature's folder), for the tests; the app loads one language at a time (features.<lang>.ts). */
export const featureResources: Resource = buildResources(
  import.meta.glob<Catalogue>('../features/*/i18n/*.json', { eager: true, import: 'default' }),
);

/** The common and every feature's catalogues together, as the app ends up with them. */
export const allResources: Resource = Object.fromEntries(
  [...new Set([...Object.keys(resources), ...Object.keys(featureResources)])].map((lang) => [
    lang,
    { ...resources[lang], ...featureResources[lang] },
  ]),
);
