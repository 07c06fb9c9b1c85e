/** French wording of the well-formedness errors reported by saxes. */

const FIXED: Record<string, string> = {
  'disallowed character.': 'caractère interdit en XML',
  'undefined entity.': 'entité non définie (un « & » seul doit être écrit « &amp; »)',
  'disallowed character in entity name.': '« & » isolé (il doit être écrit « &amp; »)',
  'empty entity name.': '« &; » : nom d’entité vide',
  'malformed character entity.': 'référence de caractère invalide',
  'unexpected close tag.': 'balise fermante inattendue : un élément ouvert n’est pas fermé avant elle',
  'weird empty close tag.': 'balise fermante vide « </> »',
  'unexpected end.': 'fin de document inattendue (document tronqué ?)',
  'document must contain a root element.': 'le document ne contient aucun élément racine',
  'documents may contain only one root.': 'contenu après la fin de l’élément racine (plusieurs racines)',
  'text data outside of root node.': 'texte en dehors de l’élément racine',
  'disallowed character in tag name': 'caractère interdit dans un nom de balise (« < » seul ?)',
  'disallowed character in tag name.': 'caractère interdit dans un nom de balise (« < » seul ?)',
  'disallowed character in closing tag.': 'caractère interdit dans une balise fermante',
  'malformed comment.': 'commentaire mal formé',
  'unquoted attribute value.': 'valeur d’attribut sans guillemets',
  'attribute without value.': 'attribut sans valeur',
  'no whitespace between attributes.': 'espace manquant entre deux attributs',
  'forward-slash in opening tag not followed by >.': '« / » mal placé dans une balise ouvrante',
  'the string "]]>" is disallowed in char data.': 'la suite « ]]> » est interdite dans le texte',
  'inappropriately located doctype declaration.': 'déclaration DOCTYPE mal placée',
};

const PATTERNS: [RegExp, (match: RegExpExecArray) => string][] = [
  [/^unclosed tag: (.*)$/, (m) => `la balise <${m[1]}> n’est pas fermée`],
  [
    /^unmatched closing tag: (.*)\.$/,
    (m) => `balise fermante </${m[1]}> sans balise ouvrante correspondante`,
  ],
  [/^duplicate attribute: (.*)\.$/, (m) => `attribut en double : ${m[1]}`],
  [/^malformed name: (.*)\.$/, (m) => `nom mal formé : ${m[1]}`],
  [
    /^(?:version number must|encoding value must|standalone value must|expected |XML declaration|whitespace required|value (?:required|must be quoted)|did not expect any more)/,
    () => 'déclaration XML (<?xml … ?>) mal formée',
  ],
];

/** Translate a saxes message (without its 'line:column: ' prefix). Unknown ones are kept, prefixed. */
export function frenchParserMessage(message: string): string {
  const fixed = FIXED[message];
  if (fixed !== undefined) return fixed;
  for (const [pattern, render] of PATTERNS) {
    const match = pattern.exec(message);
    if (match) return render(match);
  }
  return `erreur de syntaxe XML (${message})`;
}
