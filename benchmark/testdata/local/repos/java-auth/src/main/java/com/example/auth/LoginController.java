package com.example.auth;

import java.sql.SQLException;

/** Handles POST /login. */
public class LoginController {
    private final UserRepository users;
    private final PasswordHasher hasher;
    private final TokenService tokens;

    public LoginController(UserRepository users, PasswordHasher hasher, TokenService tokens) {
        this.users = users;
        this.hasher = hasher;
        this.tokens = tokens;
    }

    /** Returns a session token, or null when the credentials are wrong. */
    public String login(long userId, String password) throws SQLException {
        User user = users.findById(userId);
        if (user == null || user.locked() || !hasher.matches(password, user.passwordHash())) {
            return null;
        }
        return tokens.newToken();
    }
}
