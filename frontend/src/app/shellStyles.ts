// Every Mantine style, loaded with the app shell (see router.tsx). The full core sheet comes
// again after the part main.tsx loaded first, so rules keep Mantine's order; the date and
// dropzone sheets follow it, as Mantine requires.
import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/dropzone/styles.css';
