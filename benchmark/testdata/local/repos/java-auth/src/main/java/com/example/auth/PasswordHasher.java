package com.example.auth;

/** Hashes and checks passwords (bcrypt under the hood). */
public interface PasswordHasher {
    String hash(String password);

    boolean matches(String password, String hash);
}
