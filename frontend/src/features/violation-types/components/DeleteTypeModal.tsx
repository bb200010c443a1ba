import { useTranslation } from 'react-i18next';
import type { ViolationType } from '../api';
import { useDeleteType, useSaveType } from '../hooks';
import { DeleteOrDeactivateModal } from './DeleteOrDeactivateModal';

/** Deletes a violation type, or offers deactivation when recorded violations use it. */
export function DeleteTypeModal({ type, onClose }: { type: ViolationType | null; onClose: () => void }) {
  const { t } = useTranslation('violation-types');
  return (
    <DeleteOrDeactivateModal
      item={type}
      onClose={onClose}
      remove={useDeleteType()}
      save={useSaveType()}
      texts={(v) => ({
        title: t('types.delete.title'),
        confirm: t('types.delete.confirm', { name: v.name }),
        inUseTitle: t('types.delete.inUse'),
        offerDeactivate: t('types.delete.offerDeactivate'),
        submit: t('types.delete.submit'),
        deactivate: t('types.delete.deactivate'),
        deleted: t('types.deleted', { name: v.name }),
        deactivated: t('types.deactivated', { name: v.name }),
      })}
    />
  );
}
