"""Views: what each seat, the dealer and the public may see, and their renderers."""
