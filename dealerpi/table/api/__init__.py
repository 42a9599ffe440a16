"""The daemon's side of its local Unix-socket API: roles, endpoints, views and the books it keeps."""
