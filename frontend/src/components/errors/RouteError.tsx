import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorFallback } from './ErrorFallback';
import { NotFoundPage } from './pages';

/** The router's errorElement: render errors the page boundary did not catch. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return <ErrorFallback error={error} onRetry={() => window.location.reload()} />;
}
