// Mantine's styles for the app shell and the first screen most people see (a dashboard), in
// the order of Mantine's full styles.css, after the sign-in page's sheets (src/main.tsx). Every
// other component's sheet comes with the pages that use them (app/pageStyles.ts).
// `npm run size -- --check` fails when a chunk uses a Mantine class that neither these, the
// entry's, nor the sheets its own imports bring define.
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/AppShell.css';
import '@mantine/core/styles/Avatar.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Burger.css';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/Indicator.css';
import '@mantine/core/styles/NavLink.css';
