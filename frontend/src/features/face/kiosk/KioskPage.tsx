// Every Mantine sheet (the kiosk uses Modal, Badge, Card, …), shared with the app shell's chunk:
// the kiosk runs outside the shell, so it brings them itself.
import '@/app/shellStyles';
import '@/app/pageStyles';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import i18n from '@/i18n';
import en from '../i18n/en.json';
import id from '../i18n/id.json';
import { looksLikeToken, storedToken, storeToken, type KioskInfo } from './api';
import { KioskScreen } from './KioskScreen';
import { tokenFromHash } from './logic';
import { PairForm } from './PairForm';

// Feature catalogues come with the app shell (i18n/index.ts); the kiosk has no shell, so its
// chunk adds the face namespace itself.
i18n.addResourceBundle('id', 'face', id, true, false);
i18n.addResourceBundle('en', 'face', en, true, false);

type Paired = { token: string; info: KioskInfo | null };

/**
 * The gate kiosk (/kiosk): a school tablet or laptop, paired once with a kiosk token from
 * Settings, that greets students by face and records their arrival. It runs outside the app
 * shell and signs no one in; its calls carry the kiosk's token only (api.ts).
 */
export default function KioskPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const fromHash = tokenFromHash(location.hash);
  // What the pair link brought, read once: the fragment is gone after the first render.
  const [linked] = useState(fromHash);
  const [paired, setPaired] = useState<Paired | null>(() => {
    const t = linked && looksLikeToken(linked) ? linked : linked ? null : storedToken();
    return t ? { token: t, info: null } : null;
  });
  const [notice, setNotice] = useState<string | null>(null);

  // A pair link (/kiosk#token=kiosk_…): keep the token on this device, drop it from the address
  // bar and the history at once.
  useEffect(() => {
    if (!location.hash) return;
    if (fromHash && looksLikeToken(fromHash)) {
      storeToken(fromHash);
      // Opened while the page was already here (the link pasted into the same tab).
      setPaired((p) => (p?.token === fromHash ? p : { token: fromHash, info: null }));
      setNotice(null);
    }
    void navigate({ pathname: location.pathname, search: location.search, hash: '' }, { replace: true });
  }, [fromHash, location.hash, location.pathname, location.search, navigate]);

  if (!paired) {
    return (
      <PairForm
        notice={notice}
        initialToken={linked && !looksLikeToken(linked) ? linked : ''}
        onPaired={(token, info) => {
          storeToken(token);
          setNotice(null);
          setPaired({ token, info });
        }}
      />
    );
  }
  return (
    <KioskScreen
      key={paired.token}
      token={paired.token}
      initialInfo={paired.info}
      onUnpair={(message) => {
        storeToken(null);
        setNotice(message);
        setPaired(null);
      }}
    />
  );
}
