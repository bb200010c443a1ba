// The family portal's entry (ortu.html, served at /ortu and /ortu/*): only the portal, with its
// own providers, so a guardian's phone never downloads the staff app's entry (docs/portal.md,
// "What a guardian downloads"). Only the styles of what the portal's sign-in screen shows (its
// frame, the sign-in form, loaders, error pages, notifications), in the order of Mantine's full
// styles.css; the signed-in pages bring the rest (features/portal/ortu/pageStyles.ts).
// `npm run size -- --check` fails when a Mantine class used here has no style in this download.
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/AppShell.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Notification.css';
import '@mantine/core/styles/SegmentedControl.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/ThemeIcon.css';
import '@mantine/core/styles/Title.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import { PortalRoot } from './features/portal/ortu/PortalRoot';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PortalRoot />
  </StrictMode>,
);
