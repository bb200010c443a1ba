import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  violationTypesApi as vtApi,
  type CategoryInput,
  type HandlingTypeInput,
  type SPThresholdInput,
  type TypeInput,
  type TypeListParams,
} from './api';

export const vtKeys = {
  /** Types and categories live together: the type list embeds every category. */
  types: ['violation-types'] as const,
  typeList: (p: TypeListParams) => ['violation-types', 'list', p] as const,
  categories: ['violation-types', 'categories'] as const,
  thresholds: ['sp-thresholds'] as const,
  handling: ['handling-types'] as const,
};

export function useTypes(params: TypeListParams) {
  return useQuery({
    queryKey: vtKeys.typeList(params),
    queryFn: ({ signal }) => vtApi.listTypes(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useCategories() {
  return useQuery({ queryKey: vtKeys.categories, queryFn: ({ signal }) => vtApi.listCategories(signal) });
}

/** Every change to types or categories refreshes both (counts, embedded colours). */
function useInvalidateTypes() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: vtKeys.types });
}

export function useSaveType() {
  const invalidate = useInvalidateTypes();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: TypeInput }) => (id ? vtApi.updateType(id, input) : vtApi.createType(input)),
    onSuccess: invalidate,
  });
}

export function useDeleteType() {
  const invalidate = useInvalidateTypes();
  return useMutation({ mutationFn: (id: number) => vtApi.removeType(id), onSuccess: invalidate });
}

export function useSaveCategory() {
  const invalidate = useInvalidateTypes();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: CategoryInput }) => (id ? vtApi.updateCategory(id, input) : vtApi.createCategory(input)),
    onSuccess: invalidate,
  });
}

export function useDeleteCategory() {
  const invalidate = useInvalidateTypes();
  return useMutation({ mutationFn: (id: number) => vtApi.removeCategory(id), onSuccess: invalidate });
}

export function useThresholds() {
  return useQuery({ queryKey: vtKeys.thresholds, queryFn: ({ signal }) => vtApi.thresholds(signal) });
}

export function useSaveThresholds() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (rows: SPThresholdInput[]) => vtApi.saveThresholds(rows),
    onSuccess: (res) => {
      qc.setQueryData(vtKeys.thresholds, res);
      void qc.invalidateQueries({ queryKey: vtKeys.thresholds });
    },
  });
}

export function useHandlingTypes() {
  return useQuery({ queryKey: vtKeys.handling, queryFn: ({ signal }) => vtApi.handlingTypes(signal) });
}

function useInvalidateHandling() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: vtKeys.handling });
}

export function useSaveHandlingType() {
  const invalidate = useInvalidateHandling();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: HandlingTypeInput }) =>
      id ? vtApi.updateHandlingType(id, input) : vtApi.createHandlingType(input),
    onSuccess: invalidate,
  });
}

export function useDeleteHandlingType() {
  const invalidate = useInvalidateHandling();
  return useMutation({ mutationFn: (id: number) => vtApi.removeHandlingType(id), onSuccess: invalidate });
}

/** Previews a file (saves nothing). */
export function usePreviewImport() {
  return useMutation({ mutationFn: (file: File) => vtApi.importFile(file, true) });
}

export function useImportTypes() {
  const invalidate = useInvalidateTypes();
  return useMutation({ mutationFn: (file: File) => vtApi.importFile(file, false), onSuccess: invalidate });
}
