import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { casesApi, type AgreementStatus, type CaseListFilters, type CaseStageName, type CreateCaseInput, type ParticipantInput, type UpdateCaseInput } from './api';

/** Query keys of the cases. */
export const caseKeys = {
  all: ['cases'] as const,
  list: (f: CaseListFilters) => ['cases', 'list', f] as const,
  one: (id: number) => ['cases', 'one', id] as const,
  categories: ['cases', 'categories'] as const,
  teamOptions: ['cases', 'team-options'] as const,
};

export function useCases(f: CaseListFilters) {
  return useQuery({ queryKey: caseKeys.list(f), queryFn: ({ signal }) => casesApi.list(f, signal), placeholderData: keepPreviousData });
}

export function useCase(id: number) {
  return useQuery({ queryKey: caseKeys.one(id), queryFn: ({ signal }) => casesApi.get(id, signal), enabled: id > 0 });
}

export function useCaseCategories() {
  return useQuery({ queryKey: caseKeys.categories, queryFn: ({ signal }) => casesApi.categories(signal), staleTime: 60_000 });
}

export function useTeamOptions(enabled: boolean) {
  return useQuery({ queryKey: caseKeys.teamOptions, queryFn: ({ signal }) => casesApi.teamOptions(signal), enabled, staleTime: 60_000 });
}

/** Each change answers the case: it replaces the cached one and the lists refresh. */
function useCaseChange<V>(fn: (v: V) => ReturnType<typeof casesApi.get>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (c) => {
      qc.setQueryData(caseKeys.one(c.id), c);
      void qc.invalidateQueries({ queryKey: ['cases', 'list'] });
    },
  });
}

export function useCreateCase() {
  return useCaseChange((input: CreateCaseInput) => casesApi.create(input));
}

export function useUpdateCase(id: number) {
  return useCaseChange((input: UpdateCaseInput) => casesApi.update(id, input));
}

export function useAddParticipant(id: number) {
  return useCaseChange((input: ParticipantInput) => casesApi.addParticipant(id, input));
}

export function useMoveStage(id: number) {
  return useCaseChange((v: { to: CaseStageName; notes: string }) => casesApi.moveStage(id, v.to, v.notes));
}

export function useAddSession(id: number) {
  return useCaseChange((input: Parameters<typeof casesApi.addSession>[1]) => casesApi.addSession(id, input));
}

export function useAddAgreement(id: number) {
  return useCaseChange((input: Parameters<typeof casesApi.addAgreement>[1]) => casesApi.addAgreement(id, input));
}

export function useCheckAgreement(id: number) {
  return useCaseChange((v: { agreementId: number; items: { id: number; status: AgreementStatus; notes: string }[] }) =>
    casesApi.checkAgreement(id, v.agreementId, v.items),
  );
}

export function useAddRecovery(id: number) {
  return useCaseChange((input: Parameters<typeof casesApi.addRecovery>[1]) => casesApi.addRecovery(id, input));
}

/** A violation recorded inside the case: the case reloads to list it. */
export function useRecordCaseViolation(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: Parameters<typeof casesApi.recordViolation>[1]) => casesApi.recordViolation(id, input),
    onSuccess: () => void qc.invalidateQueries({ queryKey: caseKeys.one(id) }),
  });
}

export function useRecordReferral(id: number) {
  return useCaseChange((input: Parameters<typeof casesApi.recordReferral>[1]) => casesApi.recordReferral(id, input));
}

export function useReply(id: number) {
  return useCaseChange((text: string) => casesApi.reply(id, text));
}
