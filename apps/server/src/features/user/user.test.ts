import { SECRET_PLACEHOLDER, ZUser } from '@synchro/contracts';
import { describe, expect, it } from 'vitest';
import { addInstallation, FIXTURE_CONFIG, signIn, useTestApp } from '../../../test/helpers/app.ts';

const ctx = useTestApp();

describe('GET /api/user: ConfigConnecteur redacted', () => {
  it('hides every text inside a secret element: CDATA, comments, nested elements, the geocoding key', async () => {
    const secrets = ['Cdata-pass-1', 'Comment-pass-2', 'Imbrique-3', 'Login-4', 'AIzaCle-5', 'Minuscule-6'];
    const text = FIXTURE_CONFIG.replace(
      /<MDP>Demo-75e469<\/MDP>/,
      '<MDP chiffre="0"><![CDATA[Cdata-pass-1]]><!--Comment-pass-2--></MDP>',
    )
      .replace(/<MDP>Demo-9a2289<\/MDP>/, '<MDP>x<Partie>Imbrique-3</Partie></MDP><mdp>Minuscule-6</mdp>')
      .replace(/<Utilisateur>DEMOA001<\/Utilisateur>/, '<Utilisateur><![CDATA[Login-4]]></Utilisateur>')
      .replace(/<APIKey_Google>[^<]*<\/APIKey_Google>/, '<APIKey_Google>AIzaCle-5</APIKey_Google>');
    for (const s of secrets) expect(text).toContain(s);
    await addInstallation(ctx.db, { syncId: 'USR1', configText: text });
    const cookie = await signIn(ctx.app, 'USR1');
    const res = await ctx.app.inject({ url: '/api/user', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const user = ZUser.parse(res.json());
    for (const s of secrets) expect(res.body).not.toContain(s);
    expect(user.ConfigConnecteur).toContain(
      `<MDP chiffre="0">${SECRET_PLACEHOLDER}<!--${SECRET_PLACEHOLDER}--></MDP>`,
    );
    expect(user.ConfigConnecteur).toContain(`<APIKey_Google>${SECRET_PLACEHOLDER}</APIKey_Google>`);
    const complement = await ctx.app.inject({ url: '/api/config/complement', headers: { cookie } });
    expect(complement.json<{ data: { googleApiKey: string } }>().data.googleApiKey).toBe(SECRET_PLACEHOLDER);
    expect(complement.body).not.toContain('AIzaCle-5');
  });
});
