export { ErrorFallback } from './ErrorFallback';
export { PageErrorBoundary } from './PageErrorBoundary';
export { RouteError } from './RouteError';
export { ForbiddenPage, NotFoundPage, ServerUnreachablePage, UnexpectedErrorPage } from './pages';
