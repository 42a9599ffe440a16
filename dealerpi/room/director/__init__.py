"""The room's director, pure: seating, moves, tournaments, money and books as functions of what tables said."""
