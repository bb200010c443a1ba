import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { Alert, Badge, Button, Card, Code, Group, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle, IconArrowLeft, IconDownload, IconFileSpreadsheet, IconFolderOpen, IconUpload, IconX } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { PageHeader } from '@/components/PageHeader';
import { errorMessage, notifyError, notifySuccess } from '@/components/serverErrors';
import { pickFile, saveFile } from '@/platform';
import { MAX_IMPORT_BYTES, TEMPLATE_FILE_NAME, violationTypesApi, XLSX_ACCEPT, type ImportResult } from '../api';
import { useImportTypes, usePreviewImport } from '../hooks';
import { classifyImportError, EXPECTED_HEADERS, EXPECTED_HEADERS_EN, looksLikeXlsx } from '../importErrors';
import { paths } from '../paths';
import '@/app/pageStyles';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

type Problem = { title: string; body: ReactNode };

function ResultTable({ testId, title, colour, head, rows }: { testId: string; title: string; colour: string; head: string[]; rows: ReactNode[][] }) {
  const { t } = useTranslation('violation-types');
  return (
    <Card withBorder padding={0} data-testid={testId}>
      <Group px="md" py="sm" gap="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        <Badge color={colour} variant="light">
          {rows.length}
        </Badge>
      </Group>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed" px="md" pb="sm">
          {t('import.none')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={300}>
          <Table striped verticalSpacing="xs" aria-label={title}>
            <Table.Thead>
              <Table.Tr>
                {head.map((h, i) => (
                  <Table.Th key={h} w={i === 0 ? 64 : undefined}>
                    {h}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((cells, i) => (
                <Table.Tr key={i}>
                  {cells.map((c, j) => (
                    <Table.Td key={j} style={{ overflowWrap: 'anywhere' }}>
                      {c}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

function ImportResultView({ fileName, result }: { fileName: string; result: ImportResult }) {
  const { t } = useTranslation('violation-types');
  const preview = result.dry_run;
  const counts = [
    { key: 'created', colour: 'teal', value: result.counts.created },
    { key: 'skipped', colour: 'yellow', value: result.counts.skipped },
    { key: 'rejected', colour: 'red', value: result.counts.rejected },
  ] as const;
  const p = preview ? 'import.preview.' : 'import.';
  return (
    <Stack gap="md" data-testid={preview ? 'import-preview' : 'import-result'}>
      <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
        {t(preview ? 'import.preview.title' : 'import.resultTitle', { name: fileName })}
      </Title>
      <SimpleGrid cols={3} spacing="sm">
        {counts.map((c) => (
          <Card key={c.key} withBorder padding="sm" data-testid={`import-count-${c.key}`} style={{ borderTop: `4px solid var(--mantine-color-${c.colour}-filled)` }}>
            <Text size="xl" fw={700} lh={1}>
              {c.value}
            </Text>
            <Text size="xs" c="dimmed">
              {t(`${p}counts.${c.key}`)}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      {result.categories_created.length > 0 &&
        (preview ? (
          <Alert color="yellow" icon={<IconAlertTriangle />} title={t('import.preview.newCategoriesTitle')} data-testid="import-new-categories">
            {t('import.preview.newCategories', { names: result.categories_created.join(', ') })}
          </Alert>
        ) : (
          <Text size="sm">{t('import.categoriesCreated', { names: result.categories_created.join(', ') })}</Text>
        ))}
      <ResultTable
        testId="import-created"
        title={t(`${p}created`)}
        colour="teal"
        head={[t('import.row'), t('import.name'), t('import.category'), t('import.points')]}
        rows={result.created.map((r) => [
          r.row,
          r.name,
          r.new_category ? (
            <Group gap={4} wrap="wrap">
              {r.category}
              <Badge size="xs" color="yellow" variant="light">
                {t('import.newCategory')}
              </Badge>
            </Group>
          ) : (
            r.category
          ),
          r.points,
        ])}
      />
      <ResultTable
        testId="import-skipped"
        title={t(`${p}skipped`)}
        colour="yellow"
        head={[t('import.row'), t('import.name'), t('import.reason')]}
        rows={result.skipped.map((r) => [r.row, r.category ? `${r.name} (${r.category})` : r.name, r.reason])}
      />
      <ResultTable
        testId="import-rejected"
        title={t(`${p}rejected`)}
        colour="red"
        head={[t('import.row'), t('import.reason')]}
        rows={result.rejected.map((r) => [r.row, r.name ? `${r.reason} (${r.name})` : r.reason])}
      />
    </Stack>
  );
}

export default function ImportPage() {
  const { t } = useTranslation('violation-types');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const phone = useMediaQuery('(max-width: 48em)');
  const previewImport = usePreviewImport();
  const importTypes = useImportTypes();
  const busy = previewImport.isPending || importTypes.isPending;
  const [downloading, setDownloading] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  /** The previewed file and what importing it would do; confirming posts the same file again. */
  const [preview, setPreview] = useState<{ file: File; result: ImportResult } | null>(null);
  const [done, setDone] = useState<{ fileName: string; result: ImportResult } | null>(null);
  const [current, setCurrent] = useState<string>('');

  const showError = (err: unknown) => {
    const p = classifyImportError(err);
    switch (p.kind) {
      case 'too_large':
        setProblem({ title: t('import.failedTitle'), body: [p.message, t('import.tooLarge')].filter(Boolean).join(' ') });
        break;
      case 'headers':
        setProblem({
          title: t('import.headersTitle'),
          body: (
            <Stack gap={6}>
              <Text size="sm">{p.message}</Text>
              <Text size="sm">{t('import.expected')}</Text>
              <Group gap={4}>
                {EXPECTED_HEADERS.map((h) => (
                  <Code key={h}>{h}</Code>
                ))}
              </Group>
              <Text size="sm">{t('import.expectedEn')}</Text>
              <Group gap={4}>
                {EXPECTED_HEADERS_EN.map((h) => (
                  <Code key={h}>{h}</Code>
                ))}
              </Group>
            </Stack>
          ),
        });
        break;
      case 'file':
        setProblem({ title: t('import.failedTitle'), body: p.message || errorMessage(err, tc) });
        break;
      default:
        setProblem({ title: t('import.failedTitle'), body: errorMessage(err, tc) });
    }
  };

  /** A chosen file is only previewed: nothing is saved until the user confirms. */
  const upload = (file: File) => {
    setProblem(null);
    setDone(null);
    setPreview(null);
    if (!looksLikeXlsx(file)) {
      setProblem({ title: t('import.failedTitle'), body: t('import.notXlsx', { name: file.name }) });
      return;
    }
    if (file.size > MAX_IMPORT_BYTES) {
      setProblem({ title: t('import.failedTitle'), body: t('import.tooLarge') });
      return;
    }
    setCurrent(file.name);
    previewImport.mutate(file, { onSuccess: (result) => setPreview({ file, result }), onError: showError });
  };

  const confirm = () => {
    if (!preview) return;
    const { file } = preview;
    setProblem(null);
    importTypes.mutate(file, {
      onSuccess: (result) => {
        setPreview(null);
        setDone({ fileName: file.name, result });
        notifySuccess(t('import.imported', { count: result.counts.created }));
      },
      onError: showError,
    });
  };

  const pick = async () => {
    const file = await pickFile(XLSX_ACCEPT);
    if (file) upload(file);
  };

  const downloadTemplate = async () => {
    setDownloading(true);
    try {
      const { blob } = await violationTypesApi.importTemplate();
      await saveFile(blob, TEMPLATE_FILE_NAME);
      notifySuccess(t('import.downloaded'));
    } catch (err) {
      notifyError(err, tc);
    } finally {
      setDownloading(false);
    }
  };

  const rejected = (rejections: FileRejection[]) => {
    const first = rejections[0];
    if (!first) return;
    if (first.errors.some((e) => e.code === 'file-too-large')) setProblem({ title: t('import.failedTitle'), body: t('import.tooLarge') });
    else if (first.errors.some((e) => e.code === 'file-invalid-type')) setProblem({ title: t('import.failedTitle'), body: t('import.notXlsx', { name: first.file.name }) });
    else setProblem({ title: t('import.failedTitle'), body: t('import.reject') });
  };

  const pickButton = (
    <Button size={phone ? 'md' : 'sm'} leftSection={<IconFolderOpen size={18} />} onClick={() => void pick()} disabled={busy} fullWidth={phone}>
      {t('import.pick')}
    </Button>
  );

  return (
    <>
      <PageHeader
        title={t('import.title')}
        description={t('import.description')}
        actions={
          <>
            <Button variant="subtle" leftSection={<IconArrowLeft size={18} />} onClick={() => navigate(paths.types)}>
              {t('import.back')}
            </Button>
            <Button variant="default" leftSection={<IconDownload size={18} />} loading={downloading} onClick={() => void downloadTemplate()}>
              {t('import.download')}
            </Button>
          </>
        }
      />
      <Stack gap="md">
        <Text size="sm">{t('import.steps')}</Text>
        {/* A phone has nothing to drag from: it gets the picker button only, in words that fit. */}
        <Dropzone
          onDrop={(files) => files[0] && upload(files[0])}
          onReject={rejected}
          accept={{ [XLSX_MIME]: ['.xlsx'] }}
          maxSize={MAX_IMPORT_BYTES}
          maxFiles={1}
          multiple={false}
          activateOnClick={false}
          loading={busy}
          data-testid="import-dropzone"
        >
          <Stack align="center" gap="xs" py={phone ? 'sm' : 'lg'} style={{ pointerEvents: 'none' }}>
            <Dropzone.Accept>
              <IconUpload size={48} color="var(--mantine-color-blue-6)" />
            </Dropzone.Accept>
            <Dropzone.Reject>
              <IconX size={48} color="var(--mantine-color-red-6)" />
            </Dropzone.Reject>
            <Dropzone.Idle>
              <IconFileSpreadsheet size={phone ? 32 : 48} color="var(--mantine-color-green-7)" />
            </Dropzone.Idle>
            <Text fw={500} ta="center" data-testid="import-drop-text">
              {phone ? t('import.choose') : t('import.drop')}
            </Text>
            <Text size="sm" c="dimmed" ta="center">
              {t('import.dropHint')}
            </Text>
          </Stack>
        </Dropzone>
        <Group justify="center">{pickButton}</Group>
        {busy && (
          <Group justify="center" gap="xs">
            <Loader size="sm" />
            <Text size="sm">{t(importTypes.isPending ? 'import.uploading' : 'import.checking', { name: current })}</Text>
          </Group>
        )}
        {problem && (
          <Alert color="red" icon={<IconAlertCircle />} title={problem.title} role="alert" data-testid="import-error" withCloseButton onClose={() => setProblem(null)}>
            {problem.body}
          </Alert>
        )}
        {preview && (
          <>
            <ImportResultView fileName={preview.file.name} result={preview.result} />
            <Text size="sm" c="dimmed">
              {preview.result.counts.created > 0 ? t('import.preview.nothingSaved') : t('import.preview.nothingToImport')}
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setPreview(null)} disabled={importTypes.isPending}>
                {tc('actions.cancel')}
              </Button>
              <Button onClick={confirm} loading={importTypes.isPending} disabled={preview.result.counts.created === 0} data-testid="import-confirm">
                {t('import.preview.confirm', { count: preview.result.counts.created })}
              </Button>
            </Group>
          </>
        )}
        {done && (
          <>
            <ImportResultView fileName={done.fileName} result={done.result} />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => void pick()}>
                {t('import.again')}
              </Button>
              <Button onClick={() => navigate(paths.types)}>{t('import.toTypes')}</Button>
            </Group>
          </>
        )}
      </Stack>
    </>
  );
}
