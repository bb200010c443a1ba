// The family portal build's `react-router` (vite.portal.config.ts aliases the name to this file):
// the few parts of its API that the portal's modules and the shared ones they render
// (components/errors) use, over the browser's history, in ~2 kB instead of React Router's ~30 kB
// gzip. The portal has six routes and no loaders. Same behaviour as React Router for them:
// first match in order (the portal lists specific paths first), case-insensitive segments,
// `:param` and a trailing `*`, nested <Routes> relative to the parent's match, navigation state
// and `idx` in history.state (components/errors/pages.tsx reads it), <Navigate> in an effect,
// and a route's errorElement for what its element throws (cleared by the next navigation).
// Everything else (the dev server, vitest, the staff app) uses React Router itself.
import {
  Children,
  Component,
  createContext,
  forwardRef,
  isValidElement,
  useContext,
  useEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type ErrorInfo,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  key: string;
}

interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

interface HistoryState {
  usr: unknown;
  key: string;
  idx: number;
}

/** A route of createBrowserRouter: a path pattern, its element and what shows when it throws. */
interface RouteObject {
  path: string;
  element: ReactNode;
  errorElement?: ReactNode;
}

const listeners = new Set<() => void>();

function readLocation(): Location {
  const s = window.history.state as Partial<HistoryState> | null;
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash, state: s?.usr ?? null, key: s?.key ?? 'default' };
}

function go(to: string | number, opts: NavigateOptions = {}): void {
  if (typeof to === 'number') {
    window.history.go(to);
    return;
  }
  const idx = (window.history.state as Partial<HistoryState> | null)?.idx ?? 0;
  const next: HistoryState = { usr: opts.state ?? null, key: Math.random().toString(36).slice(2, 10), idx: opts.replace ? idx : idx + 1 };
  if (opts.replace) window.history.replaceState(next, '', to);
  else window.history.pushState(next, '', to);
  for (const l of listeners) l();
}

interface RouteMatch {
  params: Record<string, string>;
  /** The part of the path the pattern matched (without the splat): nested routes start after it. */
  base: string;
}

const segments = (p: string) => p.split('/').filter(Boolean);

/** `pattern` ("anak/:id", "/ortu/*", "*", "") against `pathname`, or null. */
export function matchPath(pattern: string, pathname: string): RouteMatch | null {
  const want = segments(pattern);
  const got = segments(pathname);
  const splat = want[want.length - 1] === '*';
  if (splat) want.pop();
  if (splat ? got.length < want.length : got.length !== want.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) {
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        params[w.slice(1)] = g;
      }
    } else if (w.toLowerCase() !== g.toLowerCase()) {
      return null;
    }
  }
  if (splat) params['*'] = got.slice(want.length).join('/');
  return { params, base: '/' + got.slice(0, want.length).join('/') };
}

const LocationContext = createContext<Location | null>(null);
const RouteContext = createContext<RouteMatch>({ params: {}, base: '/' });
const ErrorContext = createContext<unknown>(undefined);

function useRouterLocation(): Location {
  const l = useContext(LocationContext);
  if (!l) throw new Error('portal router: used outside RouterProvider');
  return l;
}

export function useLocation(): Location {
  return useRouterLocation();
}

export function useParams(): Record<string, string | undefined> {
  return useContext(RouteContext).params;
}

export function useNavigate(): (to: string | number, opts?: NavigateOptions) => void {
  return go;
}

export function useRouteError(): unknown {
  return useContext(ErrorContext);
}

/** The portal's router never makes error responses (it has no loaders): only their shape is checked. */
export function isRouteErrorResponse(e: unknown): e is { status: number; statusText: string; data: unknown } {
  return typeof e === 'object' && e !== null && 'status' in e && 'statusText' in e && 'internal' in e;
}

export function Navigate({ to, replace, state }: { to: string; replace?: boolean; state?: unknown }): null {
  useEffect(() => go(to, { replace, state }), [to, replace, state]);
  return null;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string; replace?: boolean; state?: unknown };

/** An <a href> that navigates in the page on a plain left click, as React Router's Link. */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link({ to, replace, state, onClick, target, ...rest }, ref) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || (target && target !== '_self') || e.metaKey || e.altKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    go(to, { replace, state });
  };
  return <a {...rest} ref={ref} href={to} target={target} onClick={click} />;
});

/** A route's errorElement: shown for what its element throws, until the location changes. */
class RouteErrorBoundary extends Component<{ errorElement: ReactNode; locationKey: string; children: ReactNode }, { error: unknown; key: string | null }> {
  state = { error: undefined as unknown, key: null as string | null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: { locationKey: string }, state: { error: unknown; key: string | null }) {
    if (state.key !== props.locationKey) return { error: state.key === null ? state.error : undefined, key: props.locationKey };
    return null;
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('portal route error', error, info.componentStack);
  }

  render() {
    if (this.state.error !== undefined) return <ErrorContext.Provider value={this.state.error}>{this.props.errorElement}</ErrorContext.Provider>;
    return this.props.children;
  }
}

function renderFirstMatch(routes: RouteObject[], location: Location, parentBase: string): ReactNode {
  const rest = parentBase === '/' ? location.pathname : location.pathname.slice(parentBase.length);
  for (const r of routes) {
    const m = matchPath(r.path, rest);
    if (!m) continue;
    const base = parentBase === '/' ? m.base : (parentBase + m.base).replace(/\/$/, '') || '/';
    const el = <RouteContext.Provider value={{ params: m.params, base }}>{r.element}</RouteContext.Provider>;
    return r.errorElement ? (
      <RouteErrorBoundary errorElement={r.errorElement} locationKey={location.key + location.pathname}>
        {el}
      </RouteErrorBoundary>
    ) : (
      el
    );
  }
  return null;
}

export interface Router {
  routes: RouteObject[];
}

export function createBrowserRouter(routes: RouteObject[]): Router {
  return { routes };
}

export function RouterProvider({ router }: { router: Router }): ReactElement {
  const [location, setLocation] = useState(readLocation);
  useEffect(() => {
    const update = () => setLocation(readLocation());
    listeners.add(update);
    window.addEventListener('popstate', update);
    // A navigation made before this effect ran (a <Navigate> below renders first).
    update();
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return <LocationContext.Provider value={location}>{renderFirstMatch(router.routes, location, '/')}</LocationContext.Provider>;
}

/** Declares a route inside <Routes>; renders nothing by itself. */
export function Route(_: { path: string; element: ReactNode }): null {
  return null;
}

/** The first <Route> child whose path matches the rest of the location after the parent's match. */
export function Routes({ children }: { children: ReactNode }): ReactNode {
  const location = useRouterLocation();
  const parent = useContext(RouteContext);
  const routes = useMemo(
    () =>
      Children.toArray(children)
        .filter(isValidElement)
        .map((c) => c.props as RouteObject),
    [children],
  );
  return renderFirstMatch(routes, location, parent.base);
}
