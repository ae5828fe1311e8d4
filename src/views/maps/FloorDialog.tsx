import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FileInput,
  FormGroup,
  InputGroup,
} from '@blueprintjs/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError, isCancelled } from '../../api/apiError';
import { createFloor, editFloor, type FloorFormBody } from '../../api/floors';
import { CORNERS, type Corner, type Floor } from '../../domain/floor';
import {
  type FieldErrors,
  FLOOR_IMAGE_MAX_BYTES,
  floorMessages,
  validateFloorForm,
} from '../../domain/floorValidation';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';

const IMAGE_ACCEPT = '.png,.jpg,.jpeg';
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg']);

interface FloorDialogProps {
  buildingId: number;
  /** The floor to edit; null creates one. */
  floor: Floor | null;
  onClose(): void;
  onSaved(floor: Floor): void;
}

type Coordinates = FloorFormBody['coordinates'];

function initialBody(floor: Floor | null): FloorFormBody {
  const coordinates = {} as Coordinates;
  for (const corner of CORNERS) {
    const at = floor?.coordinates[corner];
    coordinates[corner] = { lat: at ? String(at.lat) : '', long: at ? String(at.long) : '' };
  }
  return {
    name: floor?.name ?? '',
    altitude: floor ? String(floor.altitude) : '',
    category: floor?.category ?? '',
    distance: '',
    cellSizeMetres: floor ? String(floor.cellSizeMetres) : '',
    coordinates,
  };
}

/** The console's first look at the image; the server checks the bytes themselves. */
function imageProblem(file: File | null, required: boolean): string | null {
  if (!file) return required ? floorMessages.image : null;
  const byName = /\.(png|jpe?g)$/i.test(file.name);
  const byType = file.type === '' || IMAGE_TYPES.has(file.type);
  return byName && byType && file.size <= FLOOR_IMAGE_MAX_BYTES ? null : floorMessages.image;
}

/** Create or edit a floor: name, altitude, category, blueprint image, the corners a–d and the analytics cell size. */
export function FloorDialog({ buildingId, floor, onClose, onSaved }: FloorDialogProps) {
  const { t } = useTranslation();
  const api = useApi();
  const formId = useId();
  const [body, setBody] = useState(() => initialBody(floor));
  const [image, setImage] = useState<File | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});

  const mutation = useMutation({
    mutationFn: (values: { body: FloorFormBody; image: File | null }) =>
      floor
        ? editFloor(api, buildingId, floor.id, values.body, values.image)
        : createFloor(api, buildingId, values.body, values.image as File),
    onSuccess: (saved) => {
      void notify({
        message: t(floor ? 'maps.toast.floorUpdated' : 'maps.toast.floorCreated'),
        intent: 'success',
      });
      onSaved(saved);
    },
    onError: (error) => setServerErrors(isApiError(error) ? error.fieldErrors : {}),
  });

  const { errors: formErrors } = validateFloorForm(body);
  const imageError = imageProblem(image, floor === null);
  const errors: FieldErrors = { ...serverErrors, ...(submitted ? formErrors : {}) };
  if (submitted && imageError) errors.blueprint = imageError;
  const generalError =
    mutation.error && !isCancelled(mutation.error) && Object.keys(serverErrors).length === 0
      ? isApiError(mutation.error)
        ? mutation.error.message
        : t('common.somethingWentWrong')
      : null;

  const edit = (change: (draft: FloorFormBody) => FloorFormBody) => {
    setBody(change);
    setServerErrors({});
  };
  const setCorner = (corner: Corner, axis: 'lat' | 'long', value: string) =>
    edit((draft) => ({
      ...draft,
      coordinates: { ...draft.coordinates, [corner]: { ...draft.coordinates[corner], [axis]: value } },
    }));

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (mutation.isPending || Object.keys(formErrors).length > 0 || imageError) return;
    mutation.mutate({ body, image });
  }

  const close = () => {
    if (!mutation.isPending) onClose();
  };

  const field = (
    key: string,
    label: string,
    value: string,
    onChange: (value: string) => void,
    inputMode?: 'decimal',
    hint?: string,
  ) => {
    const id = `${formId}-${key}`;
    const error = errors[key];
    return (
      <FormGroup
        key={key}
        label={label}
        labelFor={id}
        intent={error ? 'danger' : 'none'}
        helperText={error ?? hint}
        className="sw-maps-field"
      >
        <InputGroup
          id={id}
          name={key}
          value={value}
          inputMode={inputMode}
          intent={error ? 'danger' : 'none'}
          data-testid={`floor-field-${key}`}
          onValueChange={onChange}
        />
      </FormGroup>
    );
  };

  // Not a literal in JSX, so the data attribute passes the props type.
  const blueprintInputProps = {
    id: `${formId}-blueprint`,
    name: 'blueprint',
    accept: IMAGE_ACCEPT,
    'data-testid': 'floor-field-blueprint',
  };

  return (
    <Dialog
      isOpen
      onClose={close}
      title={floor ? t('maps.editFloor') : t('maps.newFloor')}
      icon="layers"
      className="sw-floor-dialog"
    >
      <form onSubmit={submit} noValidate data-testid="floor-form">
        <DialogBody>
          {generalError && (
            <Callout intent="danger" compact data-testid="floor-form-error">
              {generalError}
            </Callout>
          )}
          {field('name', t('maps.form.name'), body.name, (name) => edit((d) => ({ ...d, name })))}
          <div className="sw-maps-row">
            {field(
              'altitude',
              t('maps.form.altitude'),
              String(body.altitude),
              (altitude) => edit((d) => ({ ...d, altitude })),
              'decimal',
            )}
            {field('category', t('maps.form.category'), body.category, (category) =>
              edit((d) => ({ ...d, category })),
            )}
          </div>
          <FormGroup
            label={t('maps.form.blueprint')}
            labelFor={`${formId}-blueprint`}
            intent={errors.blueprint ? 'danger' : 'none'}
            helperText={
              errors.blueprint ?? (floor ? t('maps.form.blueprintKeep') : t('maps.form.blueprintHint'))
            }
          >
            <FileInput
              fill
              hasSelection={image !== null}
              text={image?.name}
              inputProps={blueprintInputProps}
              onInputChange={(event) => {
                setImage(event.currentTarget.files?.[0] ?? null);
                setServerErrors({});
              }}
            />
          </FormGroup>
          <fieldset className="sw-maps-corners">
            <legend>{t('maps.form.corners')}</legend>
            {errors.coordinates && (
              <Callout intent="danger" compact data-testid="floor-corners-error">
                {errors.coordinates}
              </Callout>
            )}
            {CORNERS.map((corner) => (
              <fieldset className="sw-maps-corner" key={corner}>
                <legend className="sw-maps-corner-label">{t(`maps.form.corner.${corner}`)}</legend>
                <div className="sw-maps-row">
                  {field(
                    `coordinates.${corner}.lat`,
                    t('maps.form.latitude'),
                    String(body.coordinates[corner].lat),
                    (value) => setCorner(corner, 'lat', value),
                    'decimal',
                  )}
                  {field(
                    `coordinates.${corner}.long`,
                    t('maps.form.longitude'),
                    String(body.coordinates[corner].long),
                    (value) => setCorner(corner, 'long', value),
                    'decimal',
                  )}
                </div>
              </fieldset>
            ))}
            {field(
              'distance',
              t('maps.form.distance'),
              body.distance ?? '',
              (distance) => edit((d) => ({ ...d, distance })),
              'decimal',
            )}
          </fieldset>
          {field(
            'cellSizeMetres',
            t('maps.form.cellSize'),
            String(body.cellSizeMetres ?? ''),
            (cellSizeMetres) => edit((d) => ({ ...d, cellSizeMetres })),
            'decimal',
            t('maps.form.cellSizeHint'),
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={close} disabled={mutation.isPending} />
              <Button
                type="submit"
                intent="primary"
                text={floor ? t('maps.save') : t('common.create')}
                loading={mutation.isPending}
                data-testid="floor-form-submit"
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
