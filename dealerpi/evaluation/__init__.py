"""Hand strength: high hands, Omaha, 8-or-better low, and the Hexadec File 'em seven-card hands."""
