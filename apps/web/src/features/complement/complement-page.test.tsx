import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TComplementResponse } from '@synchro/contracts';
import { SECRET_PLACEHOLDER } from '@synchro/contracts/constants';
import { demoUser } from '../../test/fixtures.ts';
import { json, mockApi, renderApp, type Handler } from '../../test/render-app.tsx';
import { EMAIL_ERROR, isValidEmailList } from './complement-form.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const view: TComplementResponse = {
  version: 12,
  data: {
    googleApiKey: SECRET_PLACEHOLDER,
    driveType: 'google',
    mailRapport: {
      envoyerRapport: true,
      mailDestinataire: 'admin@exemple.fr',
      notifErr: true,
      notifInf: false,
      notifImp: false,
      globaliserEnregImport: false,
    },
    scriptComplementaire: 'SET A=1\nSET B=2',
  },
};

function show(extra: Record<string, Handler> = {}) {
  const fetchMock = mockApi({
    'GET /api/user': () => json(demoUser),
    'GET /api/config/complement': () => json(view),
    ...extra,
  });
  renderApp('/complement');
  return fetchMock;
}

const posts = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');

describe('Complément', () => {
  it('validates e-mail addresses', () => {
    expect(isValidEmailList('')).toBe(true);
    expect(isValidEmailList('a@b.fr')).toBe(true);
    expect(isValidEmailList('a@b.fr; c.d@e-f.com')).toBe(true);
    expect(isValidEmailList('a@b')).toBe(false);
    expect(isValidEmailList('a b@c.fr')).toBe(false);
    expect(isValidEmailList('a@b.fr;')).toBe(false);
  });

  it('shows every field with its stored value', async () => {
    show();
    // The geocoding key is a secret: the server sends the placeholder, the field shows bullets.
    const key = await screen.findByLabelText('Api de géocodage');
    expect(key).toHaveValue('');
    expect(key).toHaveAttribute('placeholder', SECRET_PLACEHOLDER);
    expect(key).toHaveAttribute('type', 'password');
    expect(screen.getByText('Clé enregistrée : tapez-en une autre pour la remplacer.')).toBeVisible();
    expect(screen.getByRole('combobox', { name: /^Drive pour la GED/ })).toHaveTextContent('Google Drive');
    expect(screen.getByRole('checkbox', { name: 'Envoyer un rapport de synchro par mail' })).toBeChecked();
    expect(screen.getByLabelText('Notification par email')).toHaveValue('admin@exemple.fr');
    expect(screen.getByRole('checkbox', { name: 'Notification Erreur' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Notification Import' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Notification Info' })).not.toBeChecked();
    const globalise = screen.getByRole('checkbox', {
      name: 'Globaliser les importations des saisies mobiles',
    });
    expect(globalise).not.toBeChecked();
    expect(globalise).toHaveAccessibleDescription(/plus rapide mais moins précis/);
    const script = screen.getByLabelText('Script complémentaire');
    expect(script).toHaveValue('SET A=1\nSET B=2');
    expect(script).toHaveAttribute('rows', '10');
    expect(script).toHaveClass('font-mono');
    for (const name of ['Connecter', 'Test rapport']) {
      const button = screen.getByRole('button', { name });
      expect(button).toHaveAttribute('aria-disabled', 'true');
      expect(button).toHaveAccessibleDescription('Bientôt disponible');
    }
  });

  it('saves the exact payload with If-Match, then clears the unsaved flag', async () => {
    const user = userEvent.setup();
    const fetchMock = show({
      'POST /api/database/complement': () =>
        json({ message: 'Les paramètres complémentaires ont été mis à jour.', version: 13 }),
    });
    await user.click(await screen.findByRole('combobox', { name: /^Drive pour la GED/ }));
    await user.click(await screen.findByRole('option', { name: 'OneDrive' }));
    await user.click(screen.getByRole('checkbox', { name: 'Notification Info' }));
    await user.click(
      screen.getByRole('checkbox', { name: 'Globaliser les importations des saisies mobiles' }),
    );
    await user.type(screen.getByLabelText('Script complémentaire'), '{Enter}SET C=3');
    expect(screen.getByText('Modifications non enregistrées')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Valider' }));

    expect(
      (await screen.findAllByText('Les paramètres complémentaires ont été mis à jour.', { exact: true }))[0],
    ).toBeVisible();
    const [[url, init]] = posts(fetchMock) as [[string, RequestInit]];
    expect(url).toBe('/api/database/complement');
    expect((init.headers as Record<string, string>)['If-Match']).toBe('"12"');
    expect(JSON.parse(String(init.body))).toEqual({
      googleApiKey: SECRET_PLACEHOLDER,
      driveType: 'onedrive',
      mailRapport: {
        envoyerRapport: true,
        mailDestinataire: 'admin@exemple.fr',
        notifErr: true,
        notifInf: true,
        notifImp: false,
        globaliserEnregImport: true,
      },
      scriptComplementaire: 'SET A=1\nSET B=2\nSET C=3',
    });
    await waitFor(() => expect(screen.queryByText('Modifications non enregistrées')).not.toBeInTheDocument());
  });

  it('does not save while the e-mail address is invalid, and says why at the field', async () => {
    const user = userEvent.setup();
    const fetchMock = show({ 'POST /api/database/complement': () => json({ message: 'ok', version: 13 }) });
    const email = await screen.findByLabelText('Notification par email');
    await user.clear(email);
    await user.type(email, 'admin@exemple');
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect(email).toHaveFocus();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription(expect.stringContaining(EMAIL_ERROR));
    expect(posts(fetchMock)).toHaveLength(0);

    await user.type(email, '.fr');
    expect(email).not.toHaveAttribute('aria-invalid');
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    await waitFor(() => expect(posts(fetchMock)).toHaveLength(1));
  });

  it('shows the conflict message, and the default text of other failures', async () => {
    const user = userEvent.setup();
    let status = 409;
    show({
      'POST /api/database/complement': () =>
        status === 409
          ? json({ message: 'Configuration modifiée entre-temps.', code: 'conflict' }, 409)
          : new Response('', { status, statusText: '' }),
    });
    await user.type(await screen.findByLabelText('Api de géocodage'), 'X');
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect(
      (await screen.findAllByText('Configuration modifiée entre-temps.', { exact: true }))[0],
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Recharger' })).toBeVisible();
    status = 500;
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect(
      (await screen.findAllByText('Échec de la sauvegarde des compléments', { exact: true }))[0],
    ).toBeVisible();
  });
});

describe('Complément: the geocoding key', () => {
  it('a typed key is sent, then shown as stored; « Effacer » sends ""', async () => {
    const user = userEvent.setup();
    const fetchMock = show({
      'POST /api/database/complement': () =>
        json({ message: 'Les paramètres complémentaires ont été mis à jour.', version: 13 }),
    });
    await user.type(await screen.findByLabelText('Api de géocodage'), 'AIza-neuve');
    expect(screen.getByText('La nouvelle clé remplacera celle enregistrée.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    await waitFor(() => expect(posts(fetchMock)).toHaveLength(1));
    const body = (i: number) => JSON.parse(String((posts(fetchMock)[i]?.[1] as RequestInit).body));
    expect(body(0).googleApiKey).toBe('AIza-neuve');
    // After the save the key is shown as stored (placeholder), never as typed.
    await waitFor(() => expect(screen.getByLabelText('Api de géocodage')).toHaveValue(''));
    expect(screen.getByLabelText('Api de géocodage')).toHaveAttribute('placeholder', SECRET_PLACEHOLDER);
    await user.click(screen.getByRole('button', { name: /^Effacer/ }));
    expect(screen.getByText('La clé enregistrée sera supprimée à la validation.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    await waitFor(() => expect(posts(fetchMock)).toHaveLength(2));
    expect(body(1).googleApiKey).toBe('');
  });
});
