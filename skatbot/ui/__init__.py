"""Discord presentation: text, card names, translations, and the components players press."""
