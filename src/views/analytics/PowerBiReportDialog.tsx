import { FormGroup, InputGroup } from '@blueprintjs/core';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createPowerBiReport, editPowerBiReport, type PowerBiReport } from '../../api/powerBi';
import { nameProblem } from '../../domain/nameRule';
import { checkEmbedUrl, EMBED_URL_MAX } from '../../domain/powerBi';
import { isDirty } from '../forms/isDirty';
import { serverProblem } from '../forms/serverProblem';
import { WorkforceDialog } from '../forms/WorkforceDialog';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';
import { serverText } from '../shared/serverMessage';

interface PowerBiReportDialogProps {
  siteId: number;
  /** The report to edit; null adds one. */
  report: PowerBiReport | null;
  onClose(): void;
  onSaved(report: PowerBiReport): void;
}

interface Fields {
  name: string;
  embedUrl: string;
}

/** The form's problems in the spec's words, by the server's field names; empty when it may be sent. */
function problemsOf({ name, embedUrl }: Fields): Record<string, string> {
  const problems: Record<string, string> = {};
  const nameIssue = nameProblem('Name', name);
  if (nameIssue) problems.name = nameIssue;
  const check = checkEmbedUrl(embedUrl);
  if (!check.ok) problems.embed_url = check.message;
  return problems;
}

/** Add a Power BI report link to the site, or change one's name and link. */
export function PowerBiReportDialog({ siteId, report, onClose, onSaved }: PowerBiReportDialogProps) {
  const { t } = useTranslation();
  const api = useApi();
  const id = useId();
  const initial: Fields = { name: report?.name ?? '', embedUrl: report?.embed_url ?? '' };
  const [fields, setFields] = useState<Fields>(initial);
  const [submitted, setSubmitted] = useState(false);
  const mutation = useMutation({
    mutationFn: (body: { name: string; embed_url: string }) =>
      report ? editPowerBiReport(api, siteId, report.id, body) : createPowerBiReport(api, siteId, body),
    onSuccess: ({ data, message }) => {
      if (message) void notify({ message: serverText(message, t), intent: 'success' });
      onSaved(data);
    },
  });
  const problems = submitted ? problemsOf(fields) : {};
  const server = serverProblem(mutation.error, t('common.somethingWentWrong'));
  const errorOf = (field: 'name' | 'embed_url') => {
    const english = problems[field];
    return english ? serverText(english, t) : (server.fields[field] ?? null);
  };
  const change = (field: keyof Fields) => (value: string) => {
    setFields((current) => ({ ...current, [field]: value }));
    mutation.reset();
  };
  const nameError = errorOf('name');
  const urlError = errorOf('embed_url');

  return (
    <WorkforceDialog
      title={t(report ? 'analytics.reports.edit' : 'analytics.reports.new')}
      dirty={isDirty(initial, fields)}
      busy={mutation.isPending}
      error={server.general}
      submitText={report ? t('analytics.reports.save') : t('common.create')}
      testId="power-bi-form"
      onClose={onClose}
      onSubmit={() => {
        setSubmitted(true);
        if (Object.keys(problemsOf(fields)).length > 0) return;
        mutation.mutate({ name: fields.name.trim(), embed_url: fields.embedUrl.trim() });
      }}
    >
      <FormGroup
        label={t('analytics.reports.name')}
        labelFor={`${id}-name`}
        intent={nameError ? 'danger' : 'none'}
        helperText={nameError}
      >
        <InputGroup
          id={`${id}-name`}
          name="name"
          autoFocus
          value={fields.name}
          intent={nameError ? 'danger' : 'none'}
          data-testid="power-bi-form-name"
          onValueChange={change('name')}
        />
      </FormGroup>
      <FormGroup
        label={t('analytics.reports.embedUrl')}
        labelFor={`${id}-url`}
        intent={urlError ? 'danger' : 'none'}
        helperText={
          <span data-testid="power-bi-form-url-message">
            {urlError ?? t('analytics.reports.embedUrlHelp')}
          </span>
        }
      >
        <InputGroup
          id={`${id}-url`}
          name="embed_url"
          type="url"
          dir="ltr"
          inputMode="url"
          spellCheck={false}
          maxLength={EMBED_URL_MAX}
          value={fields.embedUrl}
          intent={urlError ? 'danger' : 'none'}
          data-testid="power-bi-form-url"
          onValueChange={change('embedUrl')}
        />
      </FormGroup>
    </WorkforceDialog>
  );
}
