import { describe, expect, it } from 'vitest';
import { DEVIS_XML, base64Of, gedXml } from '../../test/history-fixtures.ts';
import {
  RecordEncodingError,
  RecordXmlError,
  base64ToBlob,
  cleanBase64,
  openRecord,
} from './record-document.ts';

describe('openRecord', () => {
  it('groups the leaf fields by parent, siblings of the same name numbered', () => {
    const record = openRecord(DEVIS_XML);
    expect(record.rootName).toBe('SyncNuxiDev');
    expect(record.groups.map((g) => g.title)).toEqual([
      'SyncNuxiDev',
      'Enregistrement',
      'Enregistrement › Lignes › Ligne 1',
      'Enregistrement › Lignes › Ligne 2',
    ]);
    const [head, enregistrement, line1] = record.groups;
    expect(head!.fields.map((f) => [f.name, f.value])).toEqual([
      ['DateHeureExport', '20241225095120419'],
      ['Device', '8667183f619bbe98'],
      ['Table', 'documentdevis'],
    ]);
    // Values are the decoded text (one level of escaping undone); empty elements are fields too.
    expect(enregistrement!.fields.map((f) => f.value)).toEqual([
      'XX_652015904063',
      'Ciselure & Fils',
      'Livrer avant midi\nCode portail 1234',
      '',
    ]);
    expect(enregistrement!.fields.find((f) => f.name === 'Note')!.multiline).toBe(true);
    expect(line1!.fields.map((f) => f.name)).toEqual(['Ligne_Designation', 'Ligne_Quantite']);
    expect(record.attachments).toEqual([]);
  });

  it('serialises the record unchanged without edits (byte order mark, declaration, blanks kept)', () => {
    const record = openRecord(DEVIS_XML);
    const xml = record.serialize(new Map()).xml.toString();
    expect(xml.startsWith('\ufeff<?xml version="1.0" encoding="utf-8"?>\n<SyncNuxiDev>')).toBe(true);
    expect(xml).toContain('<FacturationNom>Ciselure &amp; Fils</FacturationNom>');
    expect(xml).toContain('<Note>Livrer avant midi\nCode portail 1234</Note>');
    expect(xml.endsWith('</SyncNuxiDev>\n')).toBe(true);
  });

  it('escapes an edited value once, by the serialiser', () => {
    const record = openRecord(DEVIS_XML);
    const nom = record.fields.find((f) => f.name === 'FacturationNom')!;
    const depot = record.fields.find((f) => f.name === 'IDInterneDepot')!;
    const serialized = record.serialize(
      new Map([
        [nom.index, 'Durand & Fils <SARL> « Été »'],
        [depot.index, 'D1'],
      ]),
    );
    const { sizeBytes } = serialized;
    const xml = serialized.xml.toString();
    expect(sizeBytes).toBe(new TextEncoder().encode(xml).length);
    expect(xml).toContain('<FacturationNom>Durand &amp; Fils &lt;SARL&gt; « Été »</FacturationNom>');
    expect(xml).not.toContain('&amp;amp;');
    expect(xml).toContain('<IDInterneDepot>D1</IDInterneDepot>');
    // The result reads back with the value typed.
    const again = openRecord(xml);
    expect(again.fields.find((f) => f.name === 'FacturationNom')!.value).toBe('Durand & Fils <SARL> « Été »');
  });

  it('refuses a value that cannot be written as XML, naming its field', () => {
    const record = openRecord(DEVIS_XML);
    const nom = record.fields.find((f) => f.name === 'FacturationNom')!;
    expect(() => record.serialize(new Map([[nom.index, 'A\ud800B']]))).toThrow(RecordEncodingError);
    expect(() => record.serialize(new Map([[nom.index, 'A\u0001B']]))).toThrow(
      "Erreur d'encodage pour le champ FacturationNom",
    );
  });

  it('refuses a DOCTYPE and unreadable XML', () => {
    expect(() => openRecord('<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>')).toThrow(
      RecordXmlError,
    );
    expect(() => openRecord('<a><b></a>')).toThrow(/XML illisible/);
    expect(() => openRecord('')).toThrow(RecordXmlError);
  });

  it('keeps an attached document apart: its name stays a field, its content never is one', () => {
    const record = openRecord(gedXml('photo chantier.jpg', base64Of(3000)));
    expect(record.fields.map((f) => f.name)).toEqual(['Table', 'IDInterne', 'NomDocument', 'Commentaire']);
    expect(record.attachments).toHaveLength(1);
    const [doc] = record.attachments;
    expect(doc).toMatchObject({ contentElement: 'BinaireDocument', size: 3000, isDocument: true });
    expect(record.fields[doc!.nameField!]!.value).toBe('photo chantier.jpg');
    expect(record.groups[1]!.attachments).toEqual([doc]);
    expect(record.attachmentBase64(doc!)).toBe(base64Of(3000));
  });

  it('recognises NomFichier / Photo in an images table, and ignores the pair outside ged/images', () => {
    const images = openRecord(
      '<R><Table>images</Table><E><NomFichier>a.png</NomFichier><Photo>QUJD</Photo></E></R>',
    );
    expect(images.attachments).toMatchObject([{ contentElement: 'Photo', size: 3, isDocument: true }]);
    const other = openRecord(
      '<R><Table>documentdevis</Table><E><NomFichier>a.png</NomFichier><Photo>QUJD</Photo></E></R>',
    );
    expect(other.attachments).toEqual([]);
    expect(other.fields.map((f) => f.name)).toContain('Photo');
  });

  it('lists a document whose content is missing (its download will say so)', () => {
    const record = openRecord('<R><Table>ged</Table><E><NomDocument>a.pdf</NomDocument></E></R>');
    expect(record.attachments).toMatchObject([{ contentElement: 'BinaireDocument', size: 0, nameField: 1 }]);
    expect(record.attachmentBase64(record.attachments[0]!)).toBe('');
  });

  it('puts a large content back exactly as it was, edits around it applied', () => {
    const base64 = base64Of(300_000).replace(/(.{76})/g, '$1&#13;\n');
    const source = gedXml('plan.pdf', base64);
    const record = openRecord(source);
    expect(record.attachments[0]!.size).toBe(300_000);
    expect(record.serialize(new Map()).xml.toString()).toBe(source);
    const comment = record.fields.find((f) => f.name === 'Commentaire')!;
    const edited = record.serialize(new Map([[comment.index, 'Façade nord']]));
    expect(edited.sizeBytes).toBe(new TextEncoder().encode(edited.xml.toString()).length);
    expect(edited.xml.toString()).toBe(source.replace('Photo du chantier', 'Façade nord'));
    expect(record.attachmentBase64(record.attachments[0]!)).toBe(base64Of(300_000));
  });

  it('opens and serialises a 30 MB record quickly (the base64 is never parsed)', () => {
    const source = gedXml('photo.jpg', base64Of(22_500_000));
    expect(source.length).toBeGreaterThan(30_000_000);
    const record = openRecord(source);
    expect(record.attachments[0]!.size).toBe(22_500_000);
    expect(record.serialize(new Map()).xml.length).toBe(source.length);
  });
});

describe('base64 helpers', () => {
  it('cleans line breaks and references, and decodes to a Blob', async () => {
    expect(cleanBase64('QU\r\nJD&#13;&#xA;')).toBe('QUJD');
    const blob = base64ToBlob('QUJD');
    expect(blob.size).toBe(3);
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsText(blob);
    });
    expect(text).toBe('ABC');
    expect(() => base64ToBlob('QU*D')).toThrow();
  });
});
