import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { SettingsCard, type SettingsCardProps } from './SettingsCard';

function render(over: Partial<SettingsCardProps>) {
  return renderToStaticMarkup(
    <MantineProvider>
      <SettingsCard title="Numbering" description="How letters are numbered" testId="card" canEdit save={{ testId: 'save', dirty: false, saving: false }} {...over}>
        <input name="pattern" />
      </SettingsCard>
    </MantineProvider>,
  );
}

describe('SettingsCard', () => {
  it('is a form named by its title, with a save button disabled until something changed', () => {
    const html = render({ onSubmit: () => {} });
    expect(html).toContain('<form noValidate="" aria-label="Numbering">');
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*disabled=""[^>]*data-testid="save"/);
    expect(render({ onSubmit: () => {}, save: { testId: 'save', dirty: true, saving: false } })).not.toMatch(/<button[^>]*disabled=""[^>]*data-testid="save"/);
    expect(html).not.toContain('view-only');
  });

  it('shows a reader the view-only mark and no save button, but the note', () => {
    const html = render({ canEdit: false, note: 'Changed yesterday' });
    expect(html).toContain('data-testid="view-only"');
    expect(html).not.toContain('data-testid="save"');
    expect(html).toContain('Changed yesterday');
  });

  it('shows what failed above the fields', () => {
    const html = render({ error: 'The server refused', errorTestId: 'card-error' });
    expect(html).toContain('role="alert"');
    expect(html).toContain('data-testid="card-error"');
    expect(html.indexOf('The server refused')).toBeLessThan(html.indexOf('name="pattern"'));
  });
});
