//! The `recipes` table: create, list, read, replace and delete an account's
//! recipes (deleting one deletes its schedules and runs with it). Whether an
//! agent made a recipe is kept with it and survives replacing its fields.

use store::rusqlite::{self, OptionalExtension, Row, Transaction, params};

use crate::error::AutomationError;
use crate::recipe::{Isolation, NewRecipe, Recipe, folder_here, placeholders};
use crate::service::Automations;
use crate::stamp::stamp;

const COLUMNS: &str = "id, account_id, name, engine, prompt, cwd, isolation, runner, \
                       permission_level, spend_cap_usd, created_at, updated_at, created_by_agent";

impl Automations {
    /// Saves the user's recipe.
    pub fn create_recipe(
        &self,
        account_id: &str,
        fields: &NewRecipe,
    ) -> Result<Recipe, AutomationError> {
        self.create_recipe_as(account_id, fields, false)
    }

    /// Saves a recipe, `by_agent` when an agent's token made it (its runs
    /// then never get a level above `agentPermissionLevel`).
    pub fn create_recipe_as(
        &self,
        account_id: &str,
        fields: &NewRecipe,
        by_agent: bool,
    ) -> Result<Recipe, AutomationError> {
        let fields = fields.validate(&folder_here)?;
        let now = stamp(self.now());
        let mut recipe = to_recipe(store::new_id(), account_id, fields, now.clone(), now);
        recipe.created_by_agent = by_agent;
        self.db.write(|tx| {
            name_free(tx, account_id, &recipe.name, None)?;
            tx.execute(
                &format!("INSERT INTO recipes ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"),
                params![
                    recipe.id,
                    recipe.account_id,
                    recipe.name,
                    recipe.engine,
                    recipe.prompt,
                    recipe.cwd,
                    recipe.isolation.map(Isolation::as_str),
                    recipe.runner,
                    recipe.permission_level,
                    recipe.spend_cap_usd,
                    recipe.created_at,
                    recipe.updated_at,
                    recipe.created_by_agent,
                ],
            )?;
            Ok(recipe)
        })
    }

    /// The account's recipes, oldest first.
    pub fn list_recipes(&self, account_id: &str) -> Result<Vec<Recipe>, AutomationError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare(&format!(
                "SELECT {COLUMNS} FROM recipes WHERE account_id = ?1 ORDER BY seq"
            ))?;
            let rows = stmt.query_map([account_id], read_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    pub fn recipe(&self, account_id: &str, id: &str) -> Result<Recipe, AutomationError> {
        self.db.read(|tx| find_recipe(tx, account_id, id))
    }

    /// Replaces every field of a recipe; its schedules keep running it. Who
    /// made it does not change: an agent's recipe stays held to the setting.
    pub fn update_recipe(
        &self,
        account_id: &str,
        id: &str,
        fields: &NewRecipe,
    ) -> Result<Recipe, AutomationError> {
        let fields = fields.validate(&folder_here)?;
        let now = stamp(self.now());
        self.db.write(|tx| {
            let old = find_recipe(tx, account_id, id)?;
            let mut recipe = to_recipe(old.id, account_id, fields, old.created_at, now);
            recipe.created_by_agent = old.created_by_agent;
            name_free(tx, account_id, &recipe.name, Some(&recipe.id))?;
            tx.execute(
                "UPDATE recipes SET name = ?2, engine = ?3, prompt = ?4, cwd = ?5, isolation = ?6,
                        runner = ?7, permission_level = ?8, spend_cap_usd = ?9, updated_at = ?10
                 WHERE id = ?1",
                params![
                    recipe.id,
                    recipe.name,
                    recipe.engine,
                    recipe.prompt,
                    recipe.cwd,
                    recipe.isolation.map(Isolation::as_str),
                    recipe.runner,
                    recipe.permission_level,
                    recipe.spend_cap_usd,
                    recipe.updated_at,
                ],
            )?;
            Ok(recipe)
        })
    }

    /// Deletes a recipe, its schedules and its runs.
    pub fn delete_recipe(&self, account_id: &str, id: &str) -> Result<(), AutomationError> {
        self.db.write(|tx| {
            let deleted = tx.execute(
                "DELETE FROM recipes WHERE account_id = ?1 AND id = ?2",
                params![account_id, id],
            )?;
            if deleted == 0 {
                return Err(AutomationError::RecipeNotFound);
            }
            Ok(())
        })
    }
}

fn to_recipe(
    id: String,
    account_id: &str,
    fields: NewRecipe,
    created_at: String,
    updated_at: String,
) -> Recipe {
    Recipe {
        id,
        placeholders: placeholders(&fields.prompt),
        name: fields.name,
        engine: fields.engine,
        prompt: fields.prompt,
        cwd: fields.cwd,
        isolation: fields.isolation,
        runner: fields.runner,
        permission_level: fields.permission_level,
        spend_cap_usd: fields.spend_cap_usd,
        created_by_agent: false,
        created_at,
        updated_at,
        account_id: account_id.to_owned(),
    }
}

/// Refuses a name another recipe of the account has (letter case aside).
fn name_free(
    tx: &Transaction<'_>,
    account_id: &str,
    name: &str,
    except: Option<&str>,
) -> Result<(), AutomationError> {
    let taken: Option<String> = tx
        .query_row(
            "SELECT id FROM recipes WHERE account_id = ?1 AND name = ?2 AND id IS NOT ?3",
            params![account_id, name, except],
            |row| row.get(0),
        )
        .optional()?;
    match taken {
        Some(_) => Err(AutomationError::NameTaken(name.to_owned())),
        None => Ok(()),
    }
}

pub(crate) fn find_recipe(
    tx: &Transaction<'_>,
    account_id: &str,
    id: &str,
) -> Result<Recipe, AutomationError> {
    tx.query_row(
        &format!("SELECT {COLUMNS} FROM recipes WHERE account_id = ?1 AND id = ?2"),
        params![account_id, id],
        read_row,
    )
    .optional()?
    .ok_or(AutomationError::RecipeNotFound)
}

fn read_row(row: &Row<'_>) -> rusqlite::Result<Recipe> {
    let prompt: String = row.get(4)?;
    let isolation: Option<String> = row.get(6)?;
    Ok(Recipe {
        id: row.get(0)?,
        account_id: row.get(1)?,
        name: row.get(2)?,
        engine: row.get(3)?,
        placeholders: placeholders(&prompt),
        prompt,
        cwd: row.get(5)?,
        isolation: isolation.as_deref().and_then(Isolation::parse),
        runner: row.get(7)?,
        permission_level: row.get(8)?,
        spend_cap_usd: row.get(9)?,
        created_at: row.get(10)?,
        updated_at: row.get(11)?,
        created_by_agent: row.get(12)?,
    })
}
