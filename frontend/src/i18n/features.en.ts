import { buildResources, type Catalogue } from './index';

/** Every feature's catalogues in one language (namespace = the feature's folder): a chunk per language, so a screen downloads only the language it shows. */
export const featureResources = buildResources(import.meta.glob<Catalogue>('../features/*/i18n/en.json', { eager: true, import: 'default' }));
